import assert from "node:assert/strict";
import fc from "fast-check";
import sinon from "sinon";
import { SECRET, SIG, wire } from "../../../provider/plugin/values";

// wire() readies a lifecycle's result for a protobuf Struct: what a JSON round trip would give, in one walk.
describe("plugin values: wire()", () => {
  afterEach(() => sinon.restore());

  it("gives what a JSON round trip gives, for any JSON-like value with undefined, non-finite numbers and dates", () => {
    const leaf = fc.oneof(fc.string(), fc.boolean(), fc.double(), fc.integer(), fc.constant(null), fc.constant(undefined), fc.date({ noInvalidDate: true }));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("node")), fc.dictionary(fc.string(), tie("node"))),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(fc.string(), value), (props) => {
        // The round trip of the whole object: top-level undefined dropped, `__proto__` an own key.
        assert.deepEqual(wire(props, new Set()), JSON.parse(JSON.stringify(props)));
      }),
    );
  });

  it("wraps the named properties as secrets, and converts each value without a JSON text in between", () => {
    const stringify = sinon.spy(JSON, "stringify");
    const out = wire({ name: "Home", token: "t", gone: undefined, list: [1, undefined, { a: undefined, b: 2 }] }, new Set(["token"]));
    assert.deepEqual(out, { name: "Home", token: { [SIG]: SECRET, value: "t" }, list: [1, null, { b: 2 }] });
    assert.equal(stringify.callCount, 0, "no JSON round trip per property");
  });
});
