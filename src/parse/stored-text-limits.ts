/**
 * The longest title and anchor kept (characters). Real ones are far shorter; a page of a 20,000
 * character title, or links whose anchors held 4 MB each, made every dashboard snapshot and
 * report that listed them fail (one JSON string past V8's limit).
 */
export const MAX_TITLE_CHARS = 1000;
export const MAX_ANCHOR_CHARS = 1000;
