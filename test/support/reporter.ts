import Mocha = require("mocha");

/**
 * mocha's spec reporter, plus the closing line CI reads: `N passed, N failed, N skipped`.
 */
class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    // Registered after Spec's own end listener, so this line comes after its epilogue.
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const stats = runner.stats ?? { passes: 0, failures: 0, pending: 0 };
      process.stdout.write(`${stats.passes} passed, ${stats.failures} failed, ${stats.pending} skipped\n`);
    });
  }
}

export = SummaryReporter;
