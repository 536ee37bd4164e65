import { describe, expect, it } from "vitest";
import { DatabaseUnavailableError, isDatabaseUnavailable, UNAVAILABLE, unavailableSentence } from "./database-unavailable";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["PostgreSQL shutting down (57P01)", withCode("57P01", "terminating connection due to administrator command")],
    ["PostgreSQL starting up (57P03)", withCode("57P03", "the database system is starting up")],
    ["a connection failure (08006)", withCode("08006")],
    ["a statement timeout (57014)", withCode("57014")],
    ["a refused connection", withCode("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432")],
    ["a reset connection", withCode("ECONNRESET")],
    ["pg's lost connection", new Error("Connection terminated unexpectedly")],
    ["pg-pool's wait for a connection", new Error("timeout exceeded when trying to connect")],
    ["a client that lost its connection", new Error("Client has encountered a connection error and is not queryable")],
    ["SQLite busy", withCode("SQLITE_BUSY", "database is locked")],
    ["SQLite busy (extended)", withCode("SQLITE_BUSY_SNAPSHOT")],
    ["SQLite I/O error", withCode("SQLITE_IOERR_READ")],
    ["SQLite cannot open", withCode("SQLITE_CANTOPEN")],
    ["a migration that failed because of one", new Error("Migration failed", { cause: withCode("SQLITE_BUSY") })],
    ["several addresses refused", new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")])],
    ["the gate's own refusal", new DatabaseUnavailableError()],
  ])("%s: the database is away", (_, e) => expect(isDatabaseUnavailable(e)).toBe(true));

  it.each([
    ["a unique violation", withCode("23505")],
    ["SQLite constraint", withCode("SQLITE_CONSTRAINT_UNIQUE")],
    ["a missing table", withCode("42P01", 'relation "x" does not exist')],
    ["a syntax error", withCode("SQLITE_ERROR", "near \"selec\": syntax error")],
    ["a bug", new TypeError("Cannot read properties of undefined")],
    ["not an error", "ECONNREFUSED"],
    ["nothing", undefined],
  ])("%s: a fault, not an outage", (_, e) => expect(isDatabaseUnavailable(e)).toBe(false));
});

describe("unavailableSentence", () => {
  it("orders promise nothing was charged, in the form and the API", () => {
    expect(UNAVAILABLE.orders).toBe("We cannot take orders for a moment; nothing was charged; try again in a minute.");
    for (const path of ["/event", "/event.data", "/merchandise", "/api/badge_orders.php", "/api/merch_orders.php"]) {
      expect(unavailableSentence("POST", path), path).toBe(UNAVAILABLE.orders);
    }
  });

  it("other forms say nothing was saved; pages and reads say try again; staff that nothing changed", () => {
    expect(unavailableSentence("POST", "/newsletter")).toBe(UNAVAILABLE.save);
    expect(unavailableSentence("POST", "/api/reactions.php")).toBe(UNAVAILABLE.save);
    expect(unavailableSentence("GET", "/event")).toBe(UNAVAILABLE.page);
    expect(unavailableSentence("GET", "/api/blogs.php")).toBe(UNAVAILABLE.read);
    expect(unavailableSentence("GET", "/data/merch.json")).toBe(UNAVAILABLE.read);
    expect(unavailableSentence("POST", "/orders")).toBe(UNAVAILABLE.lookup);
    expect(unavailableSentence("POST", "/admin/badge-orders")).toBe(UNAVAILABLE.staff);
    expect(unavailableSentence("POST", "/merchandise/admin")).toBe(UNAVAILABLE.staff);
    for (const s of Object.values(UNAVAILABLE)) expect(s).toMatch(/^[A-Z].*[.]$/);
  });
});
