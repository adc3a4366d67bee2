import { Columns } from "../../src/modules/trades/broker-formats/format";
import { BROKER_FORMATS } from "../../src/modules/trades/broker-formats/registry";

/**
 * An error the import finds in a trade's field names the broker file's column the field was read
 * from (columnOf): each column named must be one of the format's header. A field worked out from
 * several cells names none (Stake's brokerage, the sum of three fees; CommSec's, the total less
 * units × price).
 */
describe.each(BROKER_FORMATS.map((f) => [f.id, f] as const))("%s columnOf", (_id, format) => {
  it("names only columns of the format's header", () => {
    const columnOf = format.columnOf(new Columns(format.header));
    const named = Object.values(columnOf);
    expect(named.length).toBeGreaterThanOrEqual(5);
    for (const column of named) expect([column, format.header]).toEqual([column, expect.arrayContaining([column])]);
  });
});
