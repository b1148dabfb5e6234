import { describe, expect, it } from "vitest";
import type { GraphQLEnumType } from "graphql";
import { createSchema } from "graphql-yoga";
import { typeDefs } from "./__generated__/typeDefs.ts";
import { ENUM_VALUES, UNMAPPED_ENUMS } from "./enum-values.ts";
import { resolvers } from "./resolvers.ts";

const schema = createSchema({ typeDefs, resolvers: resolvers as never });
const mapped = Object.entries(ENUM_VALUES as Record<string, Record<string, string>>);

describe("ENUM_VALUES", () => {
  it("covers every enum of the schema, or the enum is declared unmapped with its reason", () => {
    const schemaEnums = Object.values(schema.getTypeMap())
      .filter((type) => type.astNode?.kind === "EnumTypeDefinition")
      .map((type) => type.name)
      .sort();
    const mappedNames = Object.keys(ENUM_VALUES);
    const unmappedNames = Object.keys(UNMAPPED_ENUMS);
    expect(
      schemaEnums.filter((name) => !mappedNames.includes(name) && !unmappedNames.includes(name)),
      "schema enums in neither ENUM_VALUES nor UNMAPPED_ENUMS",
    ).toEqual([]);
    expect(
      mappedNames.filter((name) => unmappedNames.includes(name)),
      "in both lists",
    ).toEqual([]);
    expect(
      [...mappedNames, ...unmappedNames].filter((name) => !schemaEnums.includes(name)),
      "not an enum of the schema",
    ).toEqual([]);
  });

  it.each(mapped)(
    "%s maps every GraphQL value, and only those, to distinct PocketBase values",
    (name, mapping) => {
      const type = schema.getType(name);
      // (Not instanceof: the schema is built by Yoga's copy of graphql.)
      expect(type?.astNode?.kind).toBe("EnumTypeDefinition");
      const graphqlValues = (type as GraphQLEnumType).getValues().map((v) => v.name);
      expect(Object.keys(mapping).sort()).toEqual([...graphqlValues].sort());
      expect(new Set(Object.values(mapping)).size).toBe(graphqlValues.length);
    },
  );

  it("is what the served schema uses: a GraphQL name stands for its PocketBase value on the way in and out", () => {
    const postStatus = schema.getType("PostStatus") as GraphQLEnumType;
    expect(postStatus.getValue("DRAFT")?.value).toBe("draft");
    expect(postStatus.serialize("scheduled")).toBe("SCHEDULED");
    expect(postStatus.parseValue("PUBLISHED")).toBe("published");
    const permission = schema.getType("Permission") as GraphQLEnumType;
    expect(permission.serialize(ENUM_VALUES.Permission.PRAYER_VIEW_PASTORAL)).toBe("PRAYER_VIEW_PASTORAL");
    const topic = schema.getType("StaffAlertTopic") as GraphQLEnumType;
    expect(topic.parseValue("VISIT_REQUESTS")).toBe("visits");
    // A value PocketBase never stores is refused rather than passed through.
    expect(() => postStatus.serialize("DRAFT")).toThrow();
  });
});
