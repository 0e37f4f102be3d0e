#!/usr/bin/env bash
# Validates the deployment examples with the tools' own checkers, when they are
# installed (Debian: systemd, caddy). Run by CI (.ci/run).
set -euo pipefail
cd "$(dirname "$0")"
if command -v systemd-analyze >/dev/null 2>&1; then
  # verify exits 0 on an unknown key or a value it cannot parse (it only prints
  # "ignoring"): the unit must verify without a single line.
  out="$(systemd-analyze verify ./stake-admin.service 2>&1)" || { echo "$out"; exit 1; }
  if [ -n "$out" ]; then echo "$out"; exit 1; fi
  echo "deploy/stake-admin.service: systemd-analyze verify passed"
else
  echo "systemd-analyze is not installed: skipped deploy/stake-admin.service"
fi
if command -v caddy >/dev/null 2>&1; then
  caddy validate --config ./Caddyfile --adapter caddyfile 2>&1 | tail -n 1
  echo "deploy/Caddyfile: caddy validate passed"
else
  echo "caddy is not installed: skipped deploy/Caddyfile"
fi
