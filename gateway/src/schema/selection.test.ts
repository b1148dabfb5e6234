import { describe, expect, it } from "vitest";
import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from "graphql";
import { selectsField } from "./selection.ts";

function infoFor(query: string) {
  const document = parse(query);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )!;
  const fragments = Object.fromEntries(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );
  const field = operation.selectionSet.selections[0]!;
  return { fieldNodes: [field as never], fragments };
}

describe("selectsField", () => {
  it("finds a field directly, in inline fragments and in named fragments", () => {
    expect(selectsField(infoFor("{ users { edges { node { person { id } } } } }"), "person")).toBe(true);
    expect(
      selectsField(infoFor("{ users { edges { node { ... on User { person { id } } } } } }"), "person"),
    ).toBe(true);
    expect(
      selectsField(
        infoFor("{ users { edges { node { ...U } } } } fragment U on User { person { id } }"),
        "person",
      ),
    ).toBe(true);
  });

  it("is false when the field is not asked for", () => {
    expect(selectsField(infoFor("{ users { edges { node { id email roles { name } } } } }"), "person")).toBe(
      false,
    );
  });
});
