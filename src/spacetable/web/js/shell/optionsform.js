// A form built from a game's options schema (the JSON schema `GET /api/games` serves for
// each game's room options): a whole or decimal number with bounds becomes a number input
// with those bounds (a select when it has only a few values, like the seats), a list of
// values (a Literal) a select, a yes-or-no a checkbox, a pair of numbers (a table's width
// and height) two number inputs. The label is the field's title, the help under it its
// description; a field may name its values in words (`value_titles`: value -> words, and
// "null" for no value: "no timer"). What the schema cannot say (a race per seat, a fleet
// built ship by ship) the game's lobby module adds beside it.
//
// API:
//   optionsForm(schema) -> { element, has, input, option, remove, value, values }
//     element   a <div> with one labelled control per field (but the `ruleset` constant
//               and any field the form cannot draw, which the game's module draws);
//     values()  the fields' values as the POST /api/rooms body wants them (numbers as
//               numbers, an empty optional field as null).

import { el } from "./dom.js";

/** A select rather than a number input for an integer with at most this many values. */
const FEW_VALUES = 6;

/** The schema's own part of an optional field (`X | None`): X, and whether None is allowed. */
function unwrap(property) {
  const options = property.anyOf;
  if (!options) return { type: property, nullable: false };
  const kept = options.filter((option) => option.type !== "null");
  return { type: kept.length === 1 ? { ...property, ...kept[0], anyOf: undefined } : null, nullable: kept.length < options.length };
}

/** A field's id in the page: its name with hyphens ("turn_limit" -> "turn-limit"). */
function fieldId(name) {
  return name.replaceAll("_", "-");
}

/** The words for `value` of a field: its `value_titles` entry, or the value itself. */
function valueTitle(property, value) {
  return property.value_titles?.[String(value)] ?? String(value);
}

/** A number input with the schema's bounds (`minimum`, `maximum`, `exclusiveMinimum`), wide
 * enough for its placeholder's words in any language (French FTL's "sans minuterie" showed
 * as "sans min…" in a box sized for numbers). */
function numberInput(type, attrs) {
  const whole = type.type === "integer";
  const min = type.minimum ?? type.exclusiveMinimum;
  const words = attrs.placeholder?.length || 0;
  return el("input", { type: "number", inputmode: whole ? "numeric" : "decimal", min, max: type.maximum,
    step: whole ? 1 : "any", ...attrs, style: words ? `width: max(6.5em, calc(${words}ch + 2.4em))` : undefined });
}

/** One field's control and how to read it, or null for a field this form cannot draw. */
function control(name, property) {
  const { type, nullable } = unwrap(property);
  if (!type || type.const !== undefined) return null;
  const id = fieldId(name);
  const placeholder = nullable ? valueTitle(property, null) : undefined;
  if (type.enum) {
    const select = el("select", { id, name },
      nullable ? el("option", { value: "", text: placeholder }) : null,
      type.enum.map((value) => el("option", { value: String(value), text: valueTitle(property, value),
        selected: value === property.default })));
    const values = new Map(type.enum.map((value) => [String(value), value]));
    return { input: select, read: () => (select.value === "" ? null : values.get(select.value)) };
  }
  if (type.type === "boolean") {
    const box = el("input", { id, name, type: "checkbox", checked: property.default === true });
    return { input: box, read: () => box.checked, check: true };
  }
  if (type.type === "integer" && !nullable && type.maximum - type.minimum < FEW_VALUES) {
    const values = Array.from({ length: type.maximum - type.minimum + 1 }, (_, i) => type.minimum + i);
    const select = el("select", { id, name },
      values.map((value) => el("option", { value, text: valueTitle(property, value), selected: value === property.default })));
    return { input: select, read: () => Number(select.value) };
  }
  if (type.type === "integer" || type.type === "number") {
    const input = numberInput(type, { id, name, value: property.default ?? undefined, placeholder, required: !nullable });
    return { input, read: () => (input.value.trim() === "" ? null : Number(input.value)) };
  }
  if (type.type === "array" && type.prefixItems?.every((item) => ["integer", "number"].includes(item.type))) {
    return pairControl(id, name, type, property, nullable, placeholder);
  }
  return null;
}

/** Numbers side by side (a table's width and height): "48 x 48", each named by its title. */
function pairControl(id, name, type, property, nullable, placeholder) {
  const title = property.title || name;
  const inputs = type.prefixItems.map((item, i) => numberInput(item, {
    id: i ? `${id}-${i}` : id, name: `${name}.${i}`, value: property.default?.[i], placeholder,
    required: !nullable, "aria-label": item.title ? `${title}: ${item.title}` : undefined }));
  const input = el("span", { class: "option-pair" }, inputs.flatMap((box, i) => (i ? [" x ", box] : [box])));
  const read = () => {
    const values = inputs.map((box) => box.value.trim());
    return nullable && values.every((value) => value === "") ? null : values.map(Number);
  };
  return { input, read, focus: inputs[0] };
}

/** The form of `schema`'s fields. */
export function optionsForm(schema) {
  const fields = new Map();
  const element = el("div", { class: "options-form" });
  for (const [name, property] of Object.entries(schema?.properties || {})) {
    const field = control(name, property);
    if (!field) continue;
    const helpId = `${fieldId(name)}-help`;
    const help = property.description ? el("small", { id: helpId, class: "option-help", text: property.description }) : null;
    if (help) (field.focus || field.input).setAttribute("aria-describedby", helpId);
    const title = property.title || name;
    const label = field.check
      ? el("label", { class: "check" }, field.input, ` ${title}`)
      : el(field.focus ? "div" : "label", { class: "option-field" },
        field.focus ? el("label", { for: field.focus.id, text: title }) : el("span", { text: title }), field.input);
    element.append(el("div", { class: "option", dataset: { option: name } }, label, help));
    fields.set(name, field);
  }
  return {
    element,
    has: (name) => fields.has(name),
    /** The labelled block of field `name` (to put a game's own words after it). */
    option: (name) => element.querySelector(`[data-option="${name}"]`),
    /** Leave field `name` out after all (its value is then the schema's default). */
    remove(name) {
      element.querySelector(`[data-option="${name}"]`)?.remove();
      fields.delete(name);
    },
    /** The control of field `name` (an input or select; a pair's first input). */
    input: (name) => fields.get(name).focus || fields.get(name).input,
    value: (name) => fields.get(name).read(),
    values: () => Object.fromEntries([...fields].map(([name, field]) => [name, field.read()])),
  };
}
