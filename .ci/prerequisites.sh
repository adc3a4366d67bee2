#!/usr/bin/env bash
# What the test suite needs beyond npm: a Chromium for the browser tests (test/browser/) and
# poppler's pdftotext/pdftoppm for the PDF tests. Installs Debian's `chromium` package when neither
# CHROMIUM_PATH nor /usr/bin/chromium is there, and `poppler-utils` when pdftotext is missing; does
# nothing otherwise. Needs root (or sudo) only when it has to install.
set -euo pipefail
need=()
if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then need+=(chromium); fi
if ! command -v pdftotext >/dev/null 2>&1 || ! command -v pdftoppm >/dev/null 2>&1; then need+=(poppler-utils); fi
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "prerequisites: please install ${need[*]} (for chromium, CHROMIUM_PATH may name a Chromium or Chrome binary instead)" >&2
  exit 1
fi
sudo=""; if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
echo "prerequisites: installing ${need[*]} from Debian" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
