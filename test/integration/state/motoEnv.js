// setupFiles of the `state-moto` jest project: the state-store suites run against moto instead of dynalite
// (test/integration/support/dynamo.ts).
process.env.KRUISELESS_TEST_DYNAMO = 'moto';
