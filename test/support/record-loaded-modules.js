// Preloaded with `node --require` by a test: on SIGUSR2, writes every module the process has
// loaded to the file named by LOADED_MODULES_FILE, as a JSON array of paths (whole, by a rename).
const { renameSync, writeFileSync } = require('node:fs');

process.on('SIGUSR2', () => {
  const file = process.env.LOADED_MODULES_FILE;
  writeFileSync(`${file}.part`, JSON.stringify(Object.keys(require.cache)));
  renameSync(`${file}.part`, file);
});
