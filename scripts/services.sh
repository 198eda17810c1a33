#!/usr/bin/env bash
# Starts the servers the state backend tests run against, on loopback only:
#
#   PostgreSQL (Debian's packages)      for state/backend/pg
#   versitygw (built from Go sources)   an S3-compatible server for state/backend/s3
#
# Usage:
#   bash scripts/services.sh [start]   install what is missing, start, print exports
#   bash scripts/services.sh stop      stop both servers (data is kept)
#   bash scripts/services.sh env       print the exports again
#
# `start` is idempotent: servers already running are left alone. It prints
# `export VAR=...` lines on stdout (everything else goes to stderr) and also
# writes them to $TENET_SERVICES_DIR/env, so either of these works:
#
#   eval "$(bash scripts/services.sh)"
#   bash scripts/services.sh >/dev/null && . "${TENET_SERVICES_DIR:-/tmp/tenet-services}/env"
#
# As root (CI), PostgreSQL runs as the postgres user. The versitygw binary
# is built into .cache/bin inside the clone (git-ignored); server data and
# logs live in $TENET_SERVICES_DIR (default /tmp/tenet-services), outside the
# clone, because the postgres user must be able to reach its data directory.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${TENET_SERVICES_DIR:-/tmp/tenet-services}
PG_PORT=${TENET_SERVICES_PG_PORT:-54329}
S3_PORT=${TENET_SERVICES_S3_PORT:-57070}
VGW_VERSION=v1.8.0
VGW_BIN=$ROOT/.cache/bin/versitygw

# Test credentials for throwaway servers bound to 127.0.0.1; not secrets.
PG_USER=tenet
PG_PASSWORD=tenet-test-password
PG_DB=tenet_test
S3_ACCESS=tenettestaccess
S3_SECRET=tenettestsecret0123456789
S3_BUCKET=tenet-test
S3_REGION=us-east-1

log() { echo "services: $*" >&2; }
die() { log "$*"; exit 1; }

# as_pg runs a command as the user that owns the PostgreSQL cluster.
as_pg() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

pg_bindir() {
	local d
	d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
	[ -n "$d" ] && echo "$d"
}

install_pg() {
	if [ -n "$(pg_bindir)" ] && command -v curl >/dev/null; then
		return
	fi
	[ "$(id -u)" = 0 ] || die "PostgreSQL or curl is not installed; run as root or: apt-get install postgresql curl"
	log "installing PostgreSQL (apt-get)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	# curl signs the bucket creation request (SigV4).
	apt-get install -y -qq --no-install-recommends postgresql curl ca-certificates >&2
	[ -n "$(pg_bindir)" ] || die "apt-get installed postgresql but no /usr/lib/postgresql/*/bin was found"
}

build_vgw() {
	# go install stamps no version into the binary, so a file beside it
	# records which one was built.
	if [ -x "$VGW_BIN" ] && [ "$(cat "$VGW_BIN.version" 2>/dev/null)" = "$VGW_VERSION" ]; then
		return
	fi
	log "building versitygw $VGW_VERSION into .cache/bin (go install)"
	mkdir -p "$ROOT/.cache/bin"
	# Built outside the module so versitygw's dependencies never enter
	# tenet's go.mod.
	(cd "$ROOT/.cache" && GOBIN="$ROOT/.cache/bin" GOFLAGS=-buildvcs=false \
		go install "github.com/versity/versitygw/cmd/versitygw@$VGW_VERSION") >&2
	echo "$VGW_VERSION" >"$VGW_BIN.version"
}

pg_running() {
	[ -f "$DIR/pg/data/postmaster.pid" ] && as_pg "$(pg_bindir)/pg_ctl" -D "$DIR/pg/data" status >/dev/null 2>&1
}

start_pg() {
	local bin
	bin=$(pg_bindir)
	mkdir -p "$DIR/pg"
	if [ "$(id -u)" = 0 ]; then
		chown postgres:postgres "$DIR/pg"
		chmod 755 "$DIR"
	fi
	if [ ! -f "$DIR/pg/data/PG_VERSION" ]; then
		log "initdb $DIR/pg/data"
		local pwfile="$DIR/pg/pw"
		as_pg bash -c "umask 077; echo postgres-superuser-unused > '$pwfile'"
		# Local socket connections trust the OS user (the script administers
		# the server that way); TCP always needs a password, so the tests can
		# check wrong credentials.
		as_pg "$bin/initdb" -D "$DIR/pg/data" -U postgres --pwfile="$pwfile" \
			--auth-local=trust --auth-host=scram-sha-256 -E UTF8 >"$DIR/pg-initdb.log" 2>&1 ||
			{ cat "$DIR/pg-initdb.log" >&2; die "initdb failed"; }
	fi
	if pg_running; then
		log "PostgreSQL already running on 127.0.0.1:$PG_PORT"
	else
		mkdir -p "$DIR/pg/run"
		[ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR/pg/run"
		log "starting PostgreSQL on 127.0.0.1:$PG_PORT"
		as_pg "$bin/pg_ctl" -D "$DIR/pg/data" -l "$DIR/pg/server.log" -w -t 60 \
			-o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $DIR/pg/run" start >&2 ||
			{ tail -n 30 "$DIR/pg/server.log" >&2; die "PostgreSQL did not start"; }
	fi
	local psql=(as_pg "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$DIR/pg/run" -p "$PG_PORT" -U postgres)
	"${psql[@]}" -d postgres >&2 <<SQL
SELECT 'CREATE ROLE $PG_USER LOGIN' WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '$PG_USER')\gexec
ALTER ROLE $PG_USER WITH LOGIN PASSWORD '$PG_PASSWORD';
SELECT 'CREATE DATABASE $PG_DB OWNER $PG_USER' WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = '$PG_DB')\gexec
SQL
}

s3_ready() {
	curl -s -o /dev/null -m 2 "http://127.0.0.1:$S3_PORT/" 2>/dev/null
}

start_s3() {
	mkdir -p "$DIR/s3/data" "$DIR/s3/meta"
	if [ -f "$DIR/s3/pid" ] && kill -0 "$(cat "$DIR/s3/pid")" 2>/dev/null; then
		log "versitygw already running on 127.0.0.1:$S3_PORT"
	else
		log "starting versitygw on 127.0.0.1:$S3_PORT"
		# Metadata goes to a sidecar directory so the data file system needs
		# no extended attributes.
		ROOT_ACCESS_KEY_ID=$S3_ACCESS ROOT_SECRET_ACCESS_KEY=$S3_SECRET \
			nohup "$VGW_BIN" --port "127.0.0.1:$S3_PORT" --region "$S3_REGION" \
			posix --sidecar "$DIR/s3/meta" "$DIR/s3/data" >"$DIR/s3/server.log" 2>&1 &
		echo $! >"$DIR/s3/pid"
	fi
	local i
	for i in $(seq 1 100); do
		s3_ready && break
		kill -0 "$(cat "$DIR/s3/pid")" 2>/dev/null || { tail -n 30 "$DIR/s3/server.log" >&2; die "versitygw exited"; }
		sleep 0.1
	done
	s3_ready || die "versitygw is not answering on 127.0.0.1:$S3_PORT"
	# CreateBucket, signed with SigV4 by curl; an existing bucket is fine.
	local code
	code=$(curl -s -o "$DIR/s3/mkbucket.out" -w '%{http_code}' -X PUT \
		--aws-sigv4 "aws:amz:$S3_REGION:s3" --user "$S3_ACCESS:$S3_SECRET" \
		-H "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" \
		"http://127.0.0.1:$S3_PORT/$S3_BUCKET")
	case $code in
	200) log "created bucket $S3_BUCKET" ;;
	409) ;;
	*) cat "$DIR/s3/mkbucket.out" >&2; die "creating bucket $S3_BUCKET: HTTP $code" ;;
	esac
}

print_env() {
	cat <<EOF
export TENET_TEST_PG_CONN='postgres://$PG_USER:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DB?sslmode=disable'
export TENET_TEST_S3_ENDPOINT='http://127.0.0.1:$S3_PORT'
export TENET_TEST_S3_ACCESS_KEY='$S3_ACCESS'
export TENET_TEST_S3_SECRET_KEY='$S3_SECRET'
export TENET_TEST_S3_BUCKET='$S3_BUCKET'
export TENET_TEST_S3_REGION='$S3_REGION'
EOF
}

stop() {
	if [ -f "$DIR/s3/pid" ]; then
		local pid
		pid=$(cat "$DIR/s3/pid")
		if kill -0 "$pid" 2>/dev/null; then
			log "stopping versitygw ($pid)"
			kill "$pid"
		fi
		rm -f "$DIR/s3/pid"
	fi
	if [ -n "$(pg_bindir)" ] && pg_running; then
		log "stopping PostgreSQL"
		as_pg "$(pg_bindir)/pg_ctl" -D "$DIR/pg/data" -m fast -w stop >&2
	fi
}

case ${1:-start} in
start)
	mkdir -p "$DIR"
	install_pg
	build_vgw
	start_pg
	start_s3
	print_env >"$DIR/env"
	print_env
	;;
stop) stop ;;
env) print_env ;;
*) die "usage: $0 [start|stop|env]" ;;
esac
