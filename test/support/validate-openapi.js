// Validates an OpenAPI document file with @apidevtools/swagger-parser, in a process of its own:
// its parser is an ES module that the test runner's CommonJS cannot load. Exit 1 with the errors.
require('@apidevtools/swagger-parser')
  .validate(process.argv[2])
  .then(
    () => process.stdout.write('valid\n'),
    (error) => {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    },
  );
