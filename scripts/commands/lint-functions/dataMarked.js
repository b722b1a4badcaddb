// Spectral function of the svc-data-marked rule: every property of an object schema that holds health data or secrets says what it holds in x-svc-data (openapi/extensions.md).
import path from "node:path";

/** The kinds of `x-svc-data`, weakest first: a container is marked with the strongest kind it holds. */
const KINDS = ["none", "phi", "secret"];
const MARK = "x-svc-data";

/** The keywords through which a schema's value holds other schemas' values. */
const SINGLE_SUBSCHEMAS = ["items", "additionalProperties", "contains", "unevaluatedProperties", "unevaluatedItems"];
const LIST_SUBSCHEMAS = ["allOf", "anyOf", "oneOf", "prefixItems"];

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const stronger = (a, b) => (b !== undefined && (a === undefined || KINDS.indexOf(b) > KINDS.indexOf(a)) ? b : a);
const marking = (node) => (KINDS.includes(node[MARK]) && node[MARK] !== "none" ? node[MARK] : undefined);

function atPointer(data, pointer) {
  let node = data;
  for (const raw of pointer.split("/").slice(1)) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = node[decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return node;
}

/**
 * Spectral's resolved document replaces a `$ref` and everything beside it (the mark, a description) by its target, so
 * this rule reads the documents as written and follows references itself: in the file of the split sources, or locally
 * in the bundle.
 */
class WrittenSchemas {
  constructor(inventory) {
    this.inventory = inventory;
    this.kinds = new WeakMap();
  }

  dataOf(source) {
    if (source === this.inventory.document.source) return this.inventory.document.data;
    return this.inventory.referencedDocuments[source]?.data;
  }

  /** The written node at a resolved path: Spectral maps the path back to the file and place it came from. */
  at(resolvedPath) {
    const found = this.inventory.findAssociatedItemForPath(resolvedPath, true);
    if (found === null || found.missingPropertyPath.length !== found.path.length) return undefined;
    let node = { source: found.document.source, node: found.path.reduce((value, key) => value?.[key], found.document.data) };
    for (let hops = 0; node !== undefined && isObject(node.node) && typeof node.node.$ref === "string" && hops < 20; hops++) node = this.follow(node);
    return node !== undefined && isObject(node.node) ? node : undefined;
  }

  follow({ source, node }) {
    const hash = node.$ref.indexOf("#");
    const file = hash < 0 ? node.$ref : node.$ref.slice(0, hash);
    const target = file === "" ? source : path.resolve(path.dirname(source), decodeURIComponent(file));
    const data = this.dataOf(target);
    const found = data === undefined ? undefined : atPointer(data, hash < 0 ? "" : node.$ref.slice(hash + 1));
    return isObject(found) ? { source: target, node: found } : undefined;
  }

  /** The strongest kind a schema's value holds, its own mark included. */
  kindOf(at) {
    if (this.kinds.has(at.node)) return this.kinds.get(at.node);
    this.kinds.set(at.node, undefined); // a cycle adds nothing
    const kind = stronger(marking(at.node), this.kindInside(at));
    this.kinds.set(at.node, kind);
    return kind;
  }

  /** The strongest kind of what a schema's value holds, its own mark left out: what a container must be marked with. */
  kindInside({ source, node }) {
    const children = [];
    if (typeof node.$ref === "string") {
      const target = this.follow({ source, node });
      if (target !== undefined) children.push(target);
    }
    if (isObject(node.properties)) children.push(...Object.values(node.properties).map((child) => ({ source, node: child })));
    for (const key of SINGLE_SUBSCHEMAS) children.push({ source, node: node[key] });
    for (const key of LIST_SUBSCHEMAS) if (Array.isArray(node[key])) children.push(...node[key].map((child) => ({ source, node: child })));
    return children.filter((child) => isObject(child.node)).reduce((kind, child) => stronger(kind, this.kindOf(child)), undefined);
  }
}

const inventories = new WeakMap();
const schemasOf = (inventory) => {
  if (!inventories.has(inventory)) inventories.set(inventory, new WrittenSchemas(inventory));
  return inventories.get(inventory);
};

function nameOf(at, resolvedPath) {
  return typeof at.node.title === "string" ? at.node.title : `${path.basename(at.source)}#/${resolvedPath.join("/")}`;
}

/** A mark's value, where Spectral's resolved document still shows it (beside no `$ref`). */
function checkOwnValue(node, resolvedPath) {
  if (!isObject(node) || node[MARK] === undefined || KINDS.includes(node[MARK])) return [];
  return [{ message: `${MARK} is one of ${KINDS.join(", ")}, not ${JSON.stringify(node[MARK])}.`, path: [...resolvedPath, MARK] }];
}

/** Every property (and the schema of additional properties) of an object schema that holds marked data is marked. */
function checkProperties(schemas, at, resolvedPath) {
  const fields = Object.entries(isObject(at.node.properties) ? at.node.properties : {})
    .filter(([, property]) => isObject(property))
    .map(([name, property]) => ({ name, property, place: [...resolvedPath, "properties", name] }));
  if (isObject(at.node.additionalProperties)) {
    fields.push({ name: "additionalProperties", property: at.node.additionalProperties, place: [...resolvedPath, "additionalProperties"] });
  }
  const kinds = fields.map((field) => schemas.kindOf({ source: at.source, node: field.property }));
  const held = kinds.reduce(stronger, undefined);
  const schemaName = nameOf(at, resolvedPath);
  const results = [];
  for (const { name, property, place } of fields) {
    // Spectral places a finding on a `$ref` at its target, in another file; the properties map is where the fix goes.
    const where = typeof property.$ref === "string" ? place.slice(0, -1) : place;
    const mark = property[MARK];
    if (mark !== undefined && !KINDS.includes(mark)) {
      if (typeof property.$ref === "string")
        results.push({ message: `${schemaName}.${name}: ${MARK} is one of ${KINDS.join(", ")}, not ${JSON.stringify(mark)}.`, path: where });
      continue;
    }
    if (held === undefined) continue;
    if (mark === undefined) {
      const witness = fields[kinds.indexOf(held)].name;
      results.push({
        message: `${schemaName}.${name} has no ${MARK}: ${schemaName} holds ${held} data (${witness}), so each of its properties is marked phi, secret or none.`,
        path: where,
      });
      continue;
    }
    const inside = schemas.kindInside({ source: at.source, node: property });
    if (inside !== undefined && mark !== inside) {
      results.push({ message: `${schemaName}.${name} holds ${inside} data inside it, so its ${MARK} is ${inside}, not ${mark}.`, path: where });
    }
  }
  return results;
}

export default function dataMarked(input, _options, context) {
  const results = checkOwnValue(input, context.path);
  if (!isObject(input) || !(isObject(input.properties) || isObject(input.additionalProperties))) return results;
  const schemas = schemasOf(context.documentInventory);
  const written = schemas.at(context.path);
  if (written === undefined) return results;
  return [...results, ...checkProperties(schemas, written, context.path)];
}
