#!/bin/sh
# SPDX-License-Identifier: MIT
# maelys-pty-setup and the forward-secure log's keys (maelys-pty(1),
# FORWARD SECURITY), in a scratch folder: the state is made 0600 and the
# audit account's, audit.pub 0644 and root's, and the fingerprint printed;
# a second run changes nothing; a host of the v1 (HMAC) log gets its old
# key and log kept aside as .v1, said so, and a new state, and
# --verify-log names a v1 log as such (records written and verified through
# a rotation: logrotate_audit.sh).  Root only (it sets owners, and may add the audit account as the
# deployed suites do): otherwise it says SKIP and exits 77.
set -eu

if [ "$(id -u)" -ne 0 ]; then
	echo "setup_audit.sh: SKIP: needs root (owners, the audit account)" >&2
	exit 77
fi
build="${MAELYS_BUILD_ROOT:?}"
src="${MAELYS_SOURCE_ROOT:?}"
tmp="$(mktemp -d /tmp/maelys-setup-audit.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
mkdir -m 0755 "$tmp/etc"
cp "$build/pty/maelys-pty" "$tmp/maelys-pty"
setup="$build/etc/maelys-pty-setup"
key="$tmp/etc/audit.key"
pub="$tmp/etc/audit.pub"

fail() {
	echo "setup_audit.sh: $*" >&2
	exit 1
}

# owner:group mode of a file
perms() {
	stat -c '%U %a' "$1"
}

sh "$setup" "$tmp/maelys-pty" "$tmp/log" "$key" >"$tmp/out1" 2>&1 ||
	{ cat "$tmp/out1"; fail "the first run failed"; }
[ "$(perms "$key")" = "maelys-pty 600" ] || fail "state: $(perms "$key")"
[ "$(perms "$pub")" = "root 644" ] || fail "audit.pub: $(perms "$pub")"
head -n 1 "$key" | grep -qx 'maelys-pty audit state v2' || fail "not a state"
grep -Eqx '[0-9a-f]{64}' "$pub" || fail "audit.pub: not 64 hex digits"
grep -Eq '^verification key fingerprint: SHA256:[A-Za-z0-9+/]{43}$' \
	"$tmp/out1" || { cat "$tmp/out1"; fail "no fingerprint printed"; }
grep -q "audit_verify_key = $pub" "$tmp/out1" || fail "no audit_verify_key said"

# again: nothing changes
cp "$key" "$tmp/state.before"
cp "$pub" "$tmp/pub.before"
sh "$setup" "$tmp/maelys-pty" "$tmp/log" "$key" >"$tmp/out2" 2>&1 ||
	{ cat "$tmp/out2"; fail "the second run failed"; }
cmp -s "$key" "$tmp/state.before" || fail "a second run changed the state"
cmp -s "$pub" "$tmp/pub.before" || fail "a second run changed audit.pub"
! grep -q "kept" "$tmp/out2" || fail "a second run moved something aside"

# a session's record, then --verify-log with the state
cat >"$tmp/etc/maelys-pty.conf" <<CONF
policy = $src/policies/bastion.dl
audit_log = $tmp/log/audit.log
audit_key = $key
syslog = off
CONF
chmod 0644 "$tmp/etc/maelys-pty.conf"
"$build/pty/maelys-pty" --config "$tmp/etc/maelys-pty.conf" \
	--verify-log "$tmp/log/audit.log" >"$tmp/verify0" 2>&1 &&
	fail "a log that does not exist verified"

# the v1 host: a 32-byte key, a v1 log
rm -f "$key" "$pub"
printf '0123456789abcdef0123456789abcdef' >"$key"
chmod 0400 "$key"
printf '{"v":1,"seq":1,"time":"2026-12-02T15:04:05.123Z","session":"0123456789abcdef0123456789abcdef","event":"session_start","prev":"%064d","mac":"%064d"}\n' 0 0 >"$tmp/log/audit.log"
sh "$setup" "$tmp/maelys-pty" "$tmp/log" "$key" >"$tmp/out3" 2>&1 ||
	{ cat "$tmp/out3"; fail "the conversion failed"; }
grep -q "kept $key as $key.v1" "$tmp/out3" || { cat "$tmp/out3"; fail "the old key was not said kept"; }
grep -q "kept $tmp/log/audit.log as $tmp/log/audit.log.v1" "$tmp/out3" ||
	{ cat "$tmp/out3"; fail "the old log was not said kept"; }
[ "$(cat "$key.v1")" = 0123456789abcdef0123456789abcdef ] || fail "old key changed"
[ -f "$tmp/log/audit.log.v1" ] && [ ! -e "$tmp/log/audit.log" ] || fail "old log not aside"
head -n 1 "$key" | grep -qx 'maelys-pty audit state v2' || fail "no new state"
[ "$(perms "$key")" = "maelys-pty 600" ] || fail "new state: $(perms "$key")"
"$build/pty/maelys-pty" --config "$tmp/etc/maelys-pty.conf" \
	--verify-log "$tmp/log/audit.log.v1" >"$tmp/verify1" 2>&1 && fail "v1 verified"
grep -q "written by an older maelys-pty (v1)" "$tmp/verify1" ||
	{ cat "$tmp/verify1"; fail "v1 not named"; }
echo "setup_audit.sh: ok"
