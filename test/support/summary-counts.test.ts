import assert from "node:assert/strict";
import { _summaryCounts } from "./pulumi-cli";

/**
 * The one parser of pulumi's "Resources:" summary the engine tests share, on the forms the engine's
 * display prints (pkg/backend/display/diff.go, renderSummaryEvent, in 3.248.0): `pulumi up`, `refresh`
 * and `destroy` in the past tense, `preview` with "to", a total before "unchanged" when two or more kinds
 * of change were made, and the two-character prefix of a replacement.
 */
describe("_summaryCounts (test/support/pulumi-cli)", () => {
  it("up: created, updated, deleted, replaced and imported, each by its key", () => {
    const up = "Outputs:\n    serverId: \"s1\"\n\nResources:\n    + 4 created\n    ~ 2 updated\n    - 1 deleted\n    +-1 replaced\n    = 2 imported\n    10 changes. 3 unchanged\n\nDuration: 5s\n";
    assert.deepEqual(_summaryCounts(up), { create: 4, update: 2, delete: 1, replace: 1, import: 2, same: 3 });
  });

  it("preview: the counts 'to create', 'to import', … under the same keys", () => {
    const preview = "Previewing update (dev):\n\nResources:\n    + 1 to create\n    ~ 1 to update\n    - 3 to delete\n    +-2 to replace\n    = 2 to import\n    9 changes. 1 unchanged\n\n";
    assert.deepEqual(_summaryCounts(preview), { create: 1, update: 1, delete: 3, replace: 2, import: 2, same: 1 });
  });

  it("only the last summary counts, and only up to the blank line that ends it", () => {
    const text = "Resources:\n    + 5 created\n\nDuration: 1s\n\nResources:\n    5 unchanged\n\nDuration: 1s\n\nnote: 2 created elsewhere\n";
    assert.deepEqual(_summaryCounts(text), { same: 5 });
  });

  it("a summary with no change but sames, and none at all", () => {
    assert.deepEqual(_summaryCounts("Resources:\n    3 unchanged\n"), { same: 3 });
    assert.deepEqual(_summaryCounts("error: update failed\n"), {});
  });
});
