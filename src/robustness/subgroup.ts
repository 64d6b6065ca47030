/**
 * A subgroup of the robustness profile as its file declares it: its title (the report's
 * subcategory) and its cases in id order, each with the requirement it tests.
 */
import type { CatalogueCase } from '../cases/types.js';

/** The cases of subgroup `id` under its `title`; a case outside it, or without a requirement, is a mistake in the declaration. */
export function subgroup<T extends CatalogueCase>(id: string, title: string, cases: readonly T[]): readonly T[] {
  return cases.map((c) => {
    if (!c.id.startsWith(`${id}.`)) throw new Error(`case ${c.id} is declared in subgroup ${id}`);
    if (c.requirement === undefined) throw new Error(`case ${c.id} declares no requirement`);
    return { ...c, subcategory: title };
  });
}
