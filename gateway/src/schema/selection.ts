import { Kind, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from "graphql";

/**
 * Whether the query asks for a field named `name` anywhere below the current field (following
 * fragments). Used to expand a PocketBase relation only when it will be read.
 */
export function selectsField(
  info: Pick<GraphQLResolveInfo, "fieldNodes" | "fragments">,
  name: string,
): boolean {
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): boolean =>
    !!set?.selections.some((selection) => {
      if (selection.kind === Kind.FIELD)
        return selection.name.value === name || visit(selection.selectionSet);
      if (selection.kind === Kind.INLINE_FRAGMENT) return visit(selection.selectionSet);
      if (seen.has(selection.name.value)) return false;
      seen.add(selection.name.value);
      const fragment: FragmentDefinitionNode | undefined = info.fragments[selection.name.value];
      return visit(fragment?.selectionSet);
    });
  return info.fieldNodes.some((node) => visit(node.selectionSet));
}
