/**
 * GitHub Actions workflow files checked against GitHub's own workflow schema (tests only): the
 * `workflow-v1.0` template schema of npm `@actions/workflow-parser` (MIT, GitHub's
 * actions/languageservices, the parser behind GitHub's Actions language server), read by its own
 * template reader. Every key, value type, expression and required property is checked as GitHub
 * checks them. The package's `parseWorkflow` loads the schema with a JSON import Deno refuses (no
 * `type: "json"` attribute), so the same steps are taken here from its modules, the schema file
 * read from the package's folder.
 *
 * @module
 */
import {
  TemplateContext,
  TemplateValidationErrors,
} from "@actions/workflow-parser/templates/template-context";
import { readTemplate } from "@actions/workflow-parser/templates/template-reader";
import { TemplateSchema } from "@actions/workflow-parser/templates/schema/index";
import { JSONObjectReader } from "@actions/workflow-parser/templates/json-object-reader";
import { NoOperationTraceWriter } from "@actions/workflow-parser/templates/trace-writer";
import { WORKFLOW_ROOT } from "@actions/workflow-parser/workflows/workflow-constants";
import { YamlObjectReader } from "@actions/workflow-parser/workflows/yaml-object-reader";

let schema: TemplateSchema | undefined;

/** GitHub's workflow schema, loaded once from the package (`dist/workflow-v1.0.min.json`). */
async function workflowSchema(): Promise<TemplateSchema> {
  if (schema) return schema;
  const at = import.meta.resolve("@actions/workflow-parser/templates/template-context");
  const text = await Deno.readTextFile(new URL("../workflow-v1.0.min.json", at));
  schema = TemplateSchema.load(new JSONObjectReader(undefined, text));
  return schema;
}

/**
 * What is wrong with a workflow file by GitHub's workflow schema.
 *
 * @param name the file's name, as the messages cite it (`ci.yml (Line: 3, Col: 5): …`)
 * @param text the file's YAML
 * @returns one message a problem (YAML syntax, an unknown key, a wrong value, a missing required
 *   property, an expression that does not parse); empty for a valid workflow
 */
export async function workflowErrors(name: string, text: string): Promise<string[]> {
  const context = new TemplateContext(
    new TemplateValidationErrors(),
    await workflowSchema(),
    new NoOperationTraceWriter(),
  );
  const fileId = context.getFileId(name);
  const reader = new YamlObjectReader(fileId, text);
  if (reader.errors.length > 0) return reader.errors.map((e) => `${name}: ${e.message}`);
  readTemplate(context, WORKFLOW_ROOT, reader, fileId);
  return context.errors.getErrors().map((e) => e.message);
}
