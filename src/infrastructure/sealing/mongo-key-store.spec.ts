import { MongoStandIn } from '../../testing/mongo-stand-in';
import { keyStoreContract } from '../../testing/contracts/key-store.contract';
import { MongoKeyStore } from './mongo-key-store';

// Over the stand-in of the server (src/testing/mongo-stand-in.ts); with MONGODB_URL the read store's contract runs on a real one.
const server = new MongoStandIn();
keyStoreContract('MongoDB (stand-in)', async () => new MongoKeyStore(server.connection()));
