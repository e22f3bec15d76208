#!/bin/sh
# Rebuilds topics/wms.yaml from the sample in this folder: method B's two learning steps, nothing
# added by hand (README.md). Run from anywhere after `npm run build`.
set -e
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fc="node $root/bin/focuscrawl.js"
$fc topic learn --samples "$root/topics/wms-sample/pages" --candidates "$root/topics/wms-sample/candidates.txt" --top 10 --name "web map services" --out "$tmp/terms.yaml"
$fc topic learn-links --links "$root/topics/wms-sample/service-links.txt" --top 10 --out "$tmp/links.yaml"
{
  echo "# The bundled topic of \`--preset wms\` (method B), written by topics/wms-sample/learn.sh from the"
  echo "# sample in topics/wms-sample/ (its README states where each part comes from). Do not edit by hand."
  cat "$tmp/terms.yaml" "$tmp/links.yaml"
} > "$root/topics/wms.yaml"
echo "wrote $root/topics/wms.yaml"
