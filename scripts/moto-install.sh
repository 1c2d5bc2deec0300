#!/usr/bin/env bash
# Installs moto (PyPI moto[server], the version pinned in lib/emulator/moto.ts) into a virtualenv under
# ~/.cache/kruiseless/ (or $KRUISELESS_CACHE), outside the repository; a no-op when it is there already.
# The state-store tests run on it as a second DynamoDB implementation beside dynalite.
# Needs python3 with venv and access to PyPI. Usage: npm run moto:install
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n "s/^export const MOTO_VERSION = '\(.*\)';$/\1/p" lib/emulator/moto.ts)
[ -n "$version" ] || { echo "[moto] MOTO_VERSION not found in lib/emulator/moto.ts" >&2; exit 1; }
venv=${KRUISELESS_CACHE:-$HOME/.cache/kruiseless}/moto-$version
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import moto.server, werkzeug" 2>/dev/null; then
  echo "[moto] moto $version already installed: $venv"
  exit 0
fi
command -v python3 >/dev/null 2>&1 || { echo "[moto] python3 is needed" >&2; exit 1; }
echo "[moto] installing moto[server]==$version into $venv (1/2: virtualenv)"
rm -rf "$venv"
python3 -m venv "$venv"
echo "[moto] installing moto[server]==$version into $venv (2/2: pip, ~40 packages)"
"$venv/bin/pip" install --quiet --disable-pip-version-check "moto[server]==$version"
echo "[moto] moto $version installed: $venv"
