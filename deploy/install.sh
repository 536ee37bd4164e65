#!/usr/bin/env bash
# Puts the site on a fresh Debian VPS, or updates it: safe to run again at any time.
#
#   sudo deploy/install.sh [RELEASE] [PUBLIC_URL]
#
# RELEASE is a tarball or folder made by `npm run release` (default: the release this script is
# part of). PUBLIC_URL (https://example.org) is written into /etc/outreach-site/site.env and the
# Caddyfile the first time; later runs keep what is there. What it does, each step skipped when
# already done: Debian's caddy and nodejs (Node 20.19 or later), the `outreach` system user, the
# folders, the settings file, the release under /opt/outreach-site/releases/ with `current`
# pointing to it, the systemd unit, the Caddyfile; then it (re)starts the site and reloads Caddy.
#
# INSTALL_ROOT=/some/dir writes every file under that folder instead of / (a trial run; the
# commands that change the system, apt-get, useradd, chown, systemctl, are still called by name).
set -euo pipefail

ROOT="${INSTALL_ROOT:-}"
APP_USER=outreach
APP_DIR="$ROOT/opt/outreach-site"
DATA_DIR="$ROOT/var/lib/outreach-site"
BACKUP_DIR="$ROOT/var/backups/outreach-site"
CONF_DIR="$ROOT/etc/outreach-site"
ENV_FILE="$CONF_DIR/site.env"
UNIT_FILE="$ROOT/etc/systemd/system/outreach-site.service"
CADDYFILE="$ROOT/etc/caddy/Caddyfile"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NODE_MIN="20.19"

say() { printf '[install] %s\n' "$*"; }
fail() { printf '[install] %s\n' "$*" >&2; exit 1; }

RELEASE="${1:-$(dirname "$HERE")}"
PUBLIC_URL_ARG="${2:-}"
if [ -n "$PUBLIC_URL_ARG" ] && ! [[ "$PUBLIC_URL_ARG" =~ ^https://[A-Za-z0-9.-]+$ ]]; then
  fail "PUBLIC_URL must be https:// and a host name only, e.g. https://example.org (got '$PUBLIC_URL_ARG')."
fi

# 1. This machine: Debian, as root.
if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then fail "Run as root: sudo $0 $*"; fi
debian_version=""
if [ -r "$ROOT/etc/os-release" ]; then debian_version="$(. "$ROOT/etc/os-release" && [ "${ID:-}" = debian ] && echo "${VERSION_ID:-}")" || true; fi
[ -n "$debian_version" ] || fail "This script is for Debian 12 or 13 (no Debian in /etc/os-release)."

# 2. Packages: Caddy from Debian; Node.js 20.19 or later.
node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e "const [a,b]=process.versions.node.split('.').map(Number);const [x,y]='$NODE_MIN'.split('.').map(Number);process.exit(a>x||(a===x&&b>=y)?0:1)"
}
missing=()
command -v caddy >/dev/null 2>&1 || missing+=(caddy)
if ! node_ok && [ "${debian_version%%.*}" -ge 13 ] 2>/dev/null; then missing+=(nodejs); fi
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian's ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
if ! node_ok; then
  fail "Node.js $NODE_MIN or later is needed (found: $(node --version 2>/dev/null || echo none)). Debian 13's nodejs package is new enough; on Debian 12 install Node 20 or 22 from NodeSource (https://github.com/nodesource/distributions: the nodistro 'setup_22.x' steps), then run this script again."
fi
say "Node.js $(node --version), $(caddy version 2>/dev/null | cut -d' ' -f1 || echo caddy)"

# 3. The site's user: no login, no home of its own beyond its data.
if ! getent passwd "$APP_USER" >/dev/null 2>&1; then
  say "creating the system user $APP_USER"
  useradd --system --user-group --home-dir /var/lib/outreach-site --no-create-home --shell /usr/sbin/nologin "$APP_USER"
fi

# 4. Folders: the releases (root's, read-only to the site), the data and backups (the site's only).
mkdir -p "$APP_DIR/releases" "$CONF_DIR" "$DATA_DIR" "$BACKUP_DIR" "$(dirname "$UNIT_FILE")" "$(dirname "$CADDYFILE")"
chmod 0755 "$APP_DIR" "$APP_DIR/releases"
chmod 0700 "$DATA_DIR" "$BACKUP_DIR"
chown "$APP_USER:$APP_USER" "$DATA_DIR" "$BACKUP_DIR"
chmod 0750 "$CONF_DIR"
chown "root:$APP_USER" "$CONF_DIR"

# 5. Settings: written once from the template; later runs never overwrite the operator's.
if [ ! -e "$ENV_FILE" ]; then
  say "writing $ENV_FILE (edit it, then: systemctl restart outreach-site)"
  template="$HERE/site.env.example"
  [ -r "$template" ] || template="$RELEASE/deploy/site.env.example"
  sed -e "s#^PUBLIC_URL=.*#PUBLIC_URL=${PUBLIC_URL_ARG:-https://example.org}#" "$template" >"$ENV_FILE.new"
  chmod 0640 "$ENV_FILE.new"
  chown "root:$APP_USER" "$ENV_FILE.new"
  mv "$ENV_FILE.new" "$ENV_FILE"
fi
public_url="$(sed -n 's/^PUBLIC_URL=//p' "$ENV_FILE" | tail -n 1)"
host="${public_url#https://}"
host="${host#http://}"
host="${host%%/*}"
[ -n "$host" ] || fail "PUBLIC_URL is not set in $ENV_FILE."

# 6. The release: unpacked once under releases/<name>; `current` switched to it in one step.
if [ -f "$RELEASE" ]; then
  name="$(basename "$RELEASE")"
  name="${name%.tar.gz}"
  name="${name%.tgz}"
  if [ ! -d "$APP_DIR/releases/$name" ]; then
    say "unpacking $RELEASE into $APP_DIR/releases/$name"
    mkdir -p "$APP_DIR/releases/$name.new"
    tar -xzf "$RELEASE" -C "$APP_DIR/releases/$name.new" --strip-components=1
    mv "$APP_DIR/releases/$name.new" "$APP_DIR/releases/$name"
  fi
elif [ -f "$RELEASE/RELEASE" ]; then
  name="$(basename "$RELEASE")"
  if [ "$(cd "$RELEASE" && pwd)" != "$(cd "$APP_DIR/releases" && pwd)/$name" ] && [ ! -d "$APP_DIR/releases/$name" ]; then
    say "copying $RELEASE into $APP_DIR/releases/$name"
    cp -a "$RELEASE" "$APP_DIR/releases/$name.new"
    mv "$APP_DIR/releases/$name.new" "$APP_DIR/releases/$name"
  fi
else
  fail "$RELEASE is not a release: make one with \`npm run release\` and pass its .tar.gz or folder."
fi
[ -f "$APP_DIR/releases/$name/app/server/start.mjs" ] || fail "$APP_DIR/releases/$name has no app/server/start.mjs: not a release."
previous="$(readlink "$APP_DIR/current" 2>/dev/null || true)"
if [ "$previous" != "releases/$name" ]; then
  ln -sfn "releases/$name" "$APP_DIR/current.new"
  mv -T "$APP_DIR/current.new" "$APP_DIR/current"
  say "current release: $name${previous:+ (was ${previous#releases/})}"
fi

# 7. The service.
if ! cmp -s "$HERE/outreach-site.service" "$UNIT_FILE"; then
  say "installing $UNIT_FILE"
  install -m 0644 "$HERE/outreach-site.service" "$UNIT_FILE"
fi

# 8. Caddy: our Caddyfile with PUBLIC_URL's host, replacing Debian's example one (kept as .debian).
caddy_new="$(sed -e "s/^example\.org {/$host {/" "$HERE/Caddyfile")"
if [ ! -f "$CADDYFILE" ] || ! grep -q "reverse_proxy 127.0.0.1:" "$CADDYFILE"; then
  [ -f "$CADDYFILE" ] && [ ! -f "$CADDYFILE.debian" ] && cp -p "$CADDYFILE" "$CADDYFILE.debian"
  say "writing $CADDYFILE for $host"
  printf '%s\n' "$caddy_new" >"$CADDYFILE"
  chmod 0644 "$CADDYFILE"
else
  say "keeping $CADDYFILE as it is (compare with deploy/Caddyfile after an update)"
fi

# 9. Start (or restart on the new release) and reload Caddy.
systemctl daemon-reload
systemctl enable --quiet outreach-site.service
systemctl restart outreach-site.service
systemctl enable --quiet caddy.service
systemctl reload-or-restart caddy.service
say "done: https://$host (logs: journalctl -u outreach-site; the admin key, when generated, is printed there once)"
