import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Each test file gets its own data folder (database, secrets, outbox), so files never share
// state. Tests that need other settings change process.env and call resetEnvForTests().
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "site-test-"));
process.env.DATA_DIR = dir;
process.env.DATABASE_PATH = path.join(dir, "site.db");
process.env.PUBLIC_URL = "http://site.test";
process.env.ADMIN_KEY = "test-admin-key-0123456789";
process.env.RATE_LIMIT = "on";
delete process.env.SMTP_URL;
