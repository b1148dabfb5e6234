import { describe, expect, it } from "vitest";
import type { FundRecord, PersonRecord } from "../../pocketbase/records.ts";
import {
  centsOf,
  checkRow,
  normalName,
  readImportFile,
  withReferences,
  writeAllOrNone,
  type DonorLookup,
  type ImportLookups,
} from "./import.ts";

const fund = (id: string, name: string, visibility: FundRecord["visibility"] = "public") =>
  ({ id, name, visibility, deductible: true, description: "", sort: 0 }) as FundRecord;
const person = (id: string, firstName: string, lastName: string) =>
  ({ id, firstName, lastName, preferredName: "", household: "h1" }) as PersonRecord;

const lookups: ImportLookups = {
  funds: new Map([
    ["general fund", fund("f1", "General Fund")],
    ["old roof", fund("f2", "Old Roof", "closed")],
  ]),
  donors: new Map<string, DonorLookup>([
    [
      "mark.member@example.com",
      { person: person("p1", "Mark", "Member"), householdName: "The Member family" },
    ],
    ["mark member", { person: person("p1", "Mark", "Member"), householdName: "The Member family" }],
    ["sam smith", "ambiguous"],
  ]),
  today: "2026-11-28",
};

const HEADER = "Date,Amount,Fund,Donor,Method,Cheque Number,Note";
const errorsOf = (line: string) => {
  const [row] = readImportFile(`${HEADER}\n${line}\n`);
  return Object.fromEntries(checkRow(row!, lookups).errors.map((e) => [e.field, e.code]));
};

describe("reading an import file", () => {
  it("finds the columns by their header, whatever their order and spelling", () => {
    const rows = readImportFile(
      "note,METHOD,check_number,donor,fund,amount,date\r\nthanks,Cheque,1042,Mark Member,General Fund,25,2026-01-04\r\n",
    );
    expect(rows).toEqual([
      {
        line: 2,
        cells: {
          date: "2026-01-04",
          amount: "25",
          fund: "General Fund",
          donor: "Mark Member",
          method: "Cheque",
          chequeNumber: "1042",
          note: "thanks",
        },
      },
    ]);
  });

  it("refuses a file it cannot import, on the csv field", () => {
    const codeOf = (csv: string) => {
      try {
        readImportFile(csv);
        return null;
      } catch (error) {
        return (error as { extensions: { fieldErrorCodes: Record<string, string> } }).extensions
          .fieldErrorCodes.csv;
      }
    };
    expect(codeOf(HEADER)).toBe("empty");
    expect(codeOf("date,amount\n2026-01-04,5\n")).toBe("missing_columns");
    expect(codeOf(`${HEADER}\n"unclosed`)).toBe("invalid_csv");
    expect(codeOf(`${HEADER}\n${"2026-01-04,5,General Fund,anonymous,cash\n".repeat(5001)}`)).toBe(
      "too_many_rows",
    );
  });
});

describe("checking a row", () => {
  it("accepts a known donor by email or by exact name, and an anonymous gift only when it says so", () => {
    expect(errorsOf("2026-01-04,25.00,General Fund,MARK.member@example.com,cheque,1042,")).toEqual({});
    expect(errorsOf('2026-01-04,25.00,general fund,"Member,  Mark",cash,,')).toEqual({});
    expect(errorsOf("2026-01-04,25.00,General Fund,Anonymous,cash,,")).toEqual({});
    expect(errorsOf("2026-01-04,25.00,General Fund,,cash,,")).toEqual({ donor: "required" });
    expect(errorsOf("2026-01-04,25.00,General Fund,Nobody Known,cash,,")).toEqual({ donor: "unknown_donor" });
    expect(errorsOf("2026-01-04,25.00,General Fund,Sam Smith,cash,,")).toEqual({ donor: "ambiguous_donor" });
  });

  it("gives each bad field its own error", () => {
    expect(errorsOf("04/01/2026,0,Missions,anonymous,barter,,")).toEqual({
      date: "invalid_date",
      amount: "out_of_range",
      fund: "unknown_fund",
      method: "invalid_method",
    });
    expect(errorsOf("2026-02-30,-5,Old Roof,anonymous,card,,")).toEqual({
      date: "invalid_date",
      amount: "out_of_range",
      fund: "fund_closed",
    });
    expect(errorsOf("2026-12-25,ten,General Fund,anonymous,card,,")).toEqual({
      date: "future_date",
      amount: "invalid_amount",
    });
    expect(errorsOf(`2026-01-04,5,General Fund,anonymous,cheque,${"9".repeat(31)},`)).toEqual({
      chequeNumber: "too_long",
    });
  });

  it("reads amounts as people write them, in whole cents", () => {
    expect(centsOf("1,234.5")).toEqual({ cents: 123450 });
    expect(centsOf("$12")).toEqual({ cents: 1200 });
    expect(centsOf("12.50 USD")).toEqual({ cents: 1250 });
    expect(centsOf("0.00")).toMatchObject({ code: "out_of_range" });
    expect(centsOf("-$5")).toMatchObject({ code: "out_of_range" });
    expect(centsOf("(5.00)")).toMatchObject({ code: "out_of_range" });
    expect(centsOf("12.345")).toMatchObject({ code: "invalid_amount" });
    expect(centsOf("100000000.01")).toMatchObject({ code: "out_of_range" });
  });
});

describe("a row's reference", () => {
  it("is what the row says, and identical rows are told apart by their order", () => {
    const rows = readImportFile(
      `${HEADER}\n2026-01-04,20,General Fund,anonymous,cash,,\n2026-01-04,20.00,General Fund,Anonymous,Cash,,\n2026-01-04,20,General Fund,anonymous,cash,,plate\nbad,20,General Fund,anonymous,cash,,\n`,
    );
    const [first, second, third, refused] = withReferences(rows.map((row) => checkRow(row, lookups)));
    expect(first!.reference).toMatch(/^import:[0-9a-f]{32}:1$/);
    expect(second!.reference).toBe(first!.reference.replace(/:1$/, ":2"));
    expect(third!.reference).toMatch(/:1$/);
    expect(third!.reference).not.toBe(first!.reference);
    expect(refused!.reference).toBe("");
  });

  it("compares names without case or extra spaces, last-first too", () => {
    expect(normalName("  Mark   MEMBER ")).toBe("mark member");
    expect(normalName("Member, Mark")).toBe("mark member");
  });
});

describe("writing an import's rows", () => {
  const rows = Array.from({ length: 20 }, (_, i) => i + 1);

  it("writes every row once, skipping those another import recorded meanwhile", async () => {
    const created: number[] = [];
    const outcome = await writeAllOrNone(rows, {
      create: async (row) => {
        if (row % 5 === 0) throw new Error("taken");
        created.push(row);
        return `gift${row}`;
      },
      recordedMeanwhile: async () => true,
      remove: async () => {
        throw new Error("nothing is removed");
      },
    });
    expect("written" in outcome && outcome.written.sort((a, b) => a - b)).toEqual(rows.filter((r) => r % 5));
    expect(created.sort((a, b) => a - b)).toEqual(rows.filter((r) => r % 5));
  });

  it("on a failure, stops and removes every row it wrote: all or none", async () => {
    const stored = new Set<string>();
    const refusal = new Error("refused");
    const outcome = await writeAllOrNone(rows, {
      create: async (row) => {
        await new Promise((resolve) => setTimeout(resolve, row % 3));
        if (row === 7) throw refusal;
        stored.add(`gift${row}`);
        return `gift${row}`;
      },
      recordedMeanwhile: async () => false,
      remove: async (id) => {
        stored.delete(id);
      },
    });
    expect(outcome).toEqual({ failed: { row: 7, error: refusal } });
    expect([...stored]).toEqual([]);
  });
});
