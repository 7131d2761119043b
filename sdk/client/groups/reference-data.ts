import {
  type FilterList,
  filterListListSchema,
  type ParentalControlFilteringCategory,
  parentalControlFilteringCategoryListSchema,
  type WebService,
  webServiceListSchema,
} from "../model";
import type { ApiCore } from "./shared";

/**
 * A read-only catalogue of the service: filter lists, web services or parental-control categories.
 *
 * @example
 * ```ts
 * const ids = (await client.webServices.list()).map((s) => s.id);
 * ```
 */
export interface ListApi<T> {
  list(): Promise<T[]>;
}

/** Builds the three reference-data groups on a client core, e.g. `referenceDataApis(client).webServices.list()`. */
export function referenceDataApis(core: ApiCore): {
  filterLists: ListApi<FilterList>;
  webServices: ListApi<WebService>;
  parentalControlCategories: ListApi<ParentalControlFilteringCategory>;
} {
  return {
    filterLists: { list: () => core.request({ path: "/filter_lists", schema: filterListListSchema() }) },
    webServices: { list: () => core.request({ path: "/web_services", schema: webServiceListSchema() }) },
    parentalControlCategories: {
      list: () => core.request({ path: "/parental_control_categories", schema: parentalControlFilteringCategoryListSchema() }),
    },
  };
}
