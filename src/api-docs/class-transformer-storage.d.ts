// class-transformer keeps its metadata storage (which nested DTO a field holds) at this path, typed elsewhere.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
