/**
 * Reference data the emulator serves: filter lists, web services and parental-control categories.
 * Invented for the emulator (ids shaped like the service's); settings updates are checked against them.
 */

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3"/></svg>';

/** Filter lists (`FilterList`). */
export const FILTER_LISTS = [
  { filter_id: "adguard_dns_filter", name: "Emulator DNS filter", categories: [{ category: "GENERAL", description: "General" }], tags: ["purpose:general"], rules_count: 52_000 },
  { filter_id: "emulator_security", name: "Emulator security list", categories: [{ category: "SECURITY", description: "Security" }], tags: ["purpose:security"], rules_count: 8_100 },
  { filter_id: "emulator_regional_de", name: "Emulator regional list (de)", categories: [{ category: "REGIONAL", description: "Regional" }], tags: ["lang:de"], rules_count: 2_400 },
  { filter_id: "emulator_other", name: "Emulator misc list", categories: [{ category: "OTHER", description: "Other" }], tags: [], rules_count: 310 },
].map((f) => ({
  ...f,
  description: `${f.name} (emulator data)`,
  homepage_url: `https://filters.emulator.invalid/${f.filter_id}`,
  source_url: `https://filters.emulator.invalid/${f.filter_id}/source.txt`,
  download_url: `https://filters.emulator.invalid/${f.filter_id}/download.txt`,
  time_updated: "2026-01-01T00:00:00.000Z",
}));

/** Web services (`WebService`) that parental control can block. */
export const WEB_SERVICES = ["youtube", "tiktok", "instagram", "facebook", "twitch", "discord", "reddit", "steam", "netflix", "roblox"].map(
  (id) => ({ id, name: id.charAt(0).toUpperCase() + id.slice(1), icon_svg: SVG }),
);

/** Parental-control filtering categories (`ParentalControlFilteringCategory`). */
export const PARENTAL_CATEGORIES = ["adult", "gambling", "dating", "drugs", "violence", "social_networks", "games", "video_streaming"].map((id) => ({ id }));

/** Companies and domains the traffic generator draws from, with the category of each domain. */
export const TRAFFIC_DOMAINS: readonly { domain: string; company: string; category: "ADS" | "TRACKERS" | "SOCIAL_MEDIA" | "CDN" | "OTHERS"; parental?: string }[] = [
  { domain: "ads.example-ads.test", company: "ExampleAds", category: "ADS" },
  { domain: "pixel.example-ads.test", company: "ExampleAds", category: "TRACKERS" },
  { domain: "metrics.trackco.test", company: "TrackCo", category: "TRACKERS" },
  { domain: "cdn.fastedge.test", company: "FastEdge", category: "CDN" },
  { domain: "img.fastedge.test", company: "FastEdge", category: "CDN" },
  { domain: "www.chirp.test", company: "Chirp", category: "SOCIAL_MEDIA", parental: "social_networks" },
  { domain: "api.chirp.test", company: "Chirp", category: "SOCIAL_MEDIA", parental: "social_networks" },
  { domain: "casino.luckybet.test", company: "LuckyBet", category: "OTHERS", parental: "gambling" },
  { domain: "news.dailypaper.test", company: "DailyPaper", category: "OTHERS" },
  { domain: "play.gamehub.test", company: "GameHub", category: "OTHERS", parental: "games" },
];

/** Client countries the traffic generator draws from (ISO 3166 alpha-2). */
export const TRAFFIC_COUNTRIES = ["DE", "US", "FR", "CY", "JP"] as const;
