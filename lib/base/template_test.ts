import { equal, throws } from "node:assert/strict";
import { fillTemplate } from "./template.ts";

Deno.test("fillTemplate() fills every placeholder and never re-scans values", () => {
  equal(fillTemplate("{{a}}-{{b}}-{{a}}", { a: "{{b}}", b: "2" }), "{{b}}-2-{{b}}");
});

Deno.test("fillTemplate() throws on a placeholder without a value", () => {
  throws(() => fillTemplate("x {{missing}}", {}), /"\{\{missing\}\}" has no value/);
});

Deno.test("fillTemplate() throws on a value without a placeholder", () => {
  throws(() => fillTemplate("x", { extra: "1" }), /no placeholder "\{\{extra\}\}"/);
});
