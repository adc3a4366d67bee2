import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { start } from "./spawn";

/**
 * An unusable DATA_DIR stops the start with exit 1 and one line naming it and the problem, no
 * stack. The tests run as root, for whom permission bits change nothing, so a permission problem
 * is shown with sysfs, which refuses root's writes too.
 */
async function refusal(dataDir: string): Promise<string> {
  const proc = start("src/index.ts", [], { DATA_DIR: dataDir });
  expect(await proc.exited).toBe(1);
  const lines = proc.output().trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`DATA_DIR ${dataDir} cannot hold the database: `);
  return lines[0];
}

function refusesRootWrites(dir: string): boolean {
  try {
    fs.writeFileSync(path.join(dir, "probe"), "");
    return false;
  } catch {
    return fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  }
}

describe("start-up with an unusable DATA_DIR", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pf-datadir-"));
  const file = path.join(tmp, "a-file");
  fs.writeFileSync(file, "not a directory");
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("names a file given as the directory", async () => {
    expect(await refusal(file)).toMatch(/: it is a file, not a directory\.$/);
  });

  it("names the file standing where a parent directory should be", async () => {
    expect(await refusal(path.join(file, "data"))).toMatch(new RegExp(`: ${file} is a file, not a directory\\.$`));
  });

  it("names a directory that cannot be created (and does not spin: Node's recursive mkdir does under /proc)", async () => {
    expect(await refusal("/proc/pf-service-data")).toMatch(
      /: cannot create \/proc\/pf-service-data: the file system does not allow it\.$/,
    );
  });

  (refusesRootWrites("/sys/kernel") ? it : it.skip)("names a directory that refuses writes", async () => {
    expect(await refusal("/sys/kernel")).toMatch(/: cannot write in it: permission denied\.$/);
  });
});

describe("start-up on a port already taken", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pf-port-"));
  let holder: net.Server;
  let port: number;
  beforeAll(async () => {
    holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    port = (holder.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => holder.close(resolve));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("exits 1 with one line on stderr naming the address, no stack", async () => {
    const proc = start("src/index.ts", [], {
      DATA_DIR: path.join(tmp, "data"),
      HOST: "127.0.0.1",
      PORT: String(port),
      BOOTSTRAP_API_KEY: "port-test-key-0123456789",
    });
    let stderr = "";
    proc.child.stderr!.on("data", (d) => (stderr += d));
    expect(await proc.exited).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      `Cannot listen on 127.0.0.1:${port}: the port is already in use by another process; stop it or set PORT to a free port.`,
    ]);
    // It had opened the database, and closed it before going: no error, no stack, anywhere.
    expect(proc.output()).not.toMatch(/\n\s+at |EADDRINUSE|Error:/);
  });
});
