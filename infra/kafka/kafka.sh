#!/usr/bin/env bash
# A local single-node Apache Kafka 3.9 broker (KRaft: broker and controller in one JVM) on 127.0.0.1,
# for development and tests on machines without Docker. Needs Java 11+, Maven and `pnpm install`.
#
#   infra/kafka/kafka.sh start    fetch jars (cached), format, start, create topics, print KAFKA_BROKERS=…
#   infra/kafka/kafka.sh stop     stop the broker (SIGTERM, then SIGKILL) and delete its data
#   infra/kafka/kafka.sh status   print KAFKA_BROKERS=… and exit 0 when running, exit 3 otherwise
#
# Only the KAFKA_BROKERS line goes to stdout, so `eval "$(infra/kafka/kafka.sh start)"` works; progress
# and errors go to stderr. Settings (environment):
#   GW_KAFKA_STATE_DIR      state folder (default <repo>/.kafka; tests use a private one per run)
#   GW_KAFKA_CACHE_DIR      jar cache (default ~/.cache/model-gateway/kafka-<version>)
#   GW_KAFKA_START_TIMEOUT  seconds to wait for the broker to answer (default 90)
#   GW_KAFKA_STOP_TIMEOUT   seconds to wait after SIGTERM before SIGKILL (default 30)
#   GW_KAFKA_TOPICS_FILE    topics to create (default infra/kafka/topics.json)
#   GW_KAFKA_HEAP           broker heap cap (default 512m)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
version="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/pom.xml")"
state="${GW_KAFKA_STATE_DIR:-$root/.kafka}"
cache="${GW_KAFKA_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/model-gateway/kafka-$version}"
start_timeout="${GW_KAFKA_START_TIMEOUT:-90}"
stop_timeout="${GW_KAFKA_STOP_TIMEOUT:-30}"
topics_file="${GW_KAFKA_TOPICS_FILE:-$here/topics.json}"
heap="${GW_KAFKA_HEAP:-512m}"

pid_file="$state/broker.pid"
env_file="$state/broker.env"
log_file="$state/broker.log"

say() { echo "[kafka] $*" >&2; }
die() {
  say "error: $*"
  exit 1
}

# The helper only needs a Node that runs kafkajs; the repo's env script provides one when none is on PATH.
ensure_node() {
  if ! command -v node >/dev/null 2>&1; then
    # shellcheck source=/dev/null
    source "$root/scripts/env.sh"
  fi
}

admin() { node "$here/admin.mjs" "$@"; }

broker_pid() {
  [ -f "$pid_file" ] || return 1
  local pid
  pid="$(cat "$pid_file")"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  # Guard against a recycled pid: the process must still be our broker.
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "kafka.Kafka" || return 1
  echo "$pid"
}

running() { broker_pid >/dev/null && [ -f "$env_file" ]; }

fetch_jars() {
  [ -f "$cache/.complete" ] && return 0
  command -v java >/dev/null 2>&1 || die "java not found (Kafka needs Java 11 or newer)"
  command -v mvn >/dev/null 2>&1 || die "mvn not found (the broker's jars come from Maven Central)"
  mkdir -p "$(dirname "$cache")"
  (
    # Two launchers on one machine share the cache: one downloads, the other waits for it.
    flock 8
    if [ ! -f "$cache/.complete" ]; then
      say "fetching Apache Kafka $version jars from Maven Central into $cache"
      local tmp="$cache.tmp.$$"
      rm -rf "$tmp"
      mvn -q -B -Dstyle.color=never -f "$here/pom.xml" dependency:copy-dependencies \
        -DincludeScope=runtime -DoutputDirectory="$tmp" >&2 || {
        rm -rf "$tmp"
        die "mvn dependency:copy-dependencies failed"
      }
      rm -rf "$cache"
      mv "$tmp" "$cache"
      touch "$cache/.complete"
    fi
  ) 8>"$cache.lock"
}

write_config() {
  local port="$1" controller_port="$2"
  cat >"$state/server.properties" <<EOF
# Written by infra/kafka/kafka.sh; rewritten on every start.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$state/data
num.partitions=1
# One replica; fewer internal partitions than production so the first consumer group starts fast.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=5
# Consumer groups start at once instead of waiting the default 3 s for more members.
group.initial.rebalance.delay.ms=0
EOF
  cat >"$state/log4j.properties" <<EOF
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.coordinator=WARN
log4j.logger.org.apache.kafka.coordinator=WARN
log4j.logger.kafka.log=WARN
log4j.logger.org.apache.kafka.storage=WARN
EOF
}

# JVM flags chosen for start-up time on a small machine, not throughput: C1 only and a small heap.
jvm_flags() {
  echo "-Xmx$heap -Xms128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true" \
    "-Dlog4j.configuration=file:$state/log4j.properties"
}

start() {
  if running; then
    say "already running (pid $(broker_pid))"
    cat "$env_file"
    return 0
  fi
  ensure_node
  fetch_jars
  [ -f "$root/packages/kafka/node_modules/kafkajs/package.json" ] ||
    die "kafkajs is not installed: run \`pnpm install\` at the repository root first"

  # A dead broker from an earlier run leaves state behind: start from a clean folder.
  rm -rf "$state/data" "$env_file" "$pid_file"
  mkdir -p "$state/data"
  local ports port controller_port
  ports="$(admin free-ports 2)"
  port="${ports%% *}"
  controller_port="${ports##* }"
  write_config "$port" "$controller_port"

  local cluster_id
  cluster_id="$(admin cluster-id)"
  # shellcheck disable=SC2046
  java $(jvm_flags) -cp "$cache/*" kafka.tools.StorageTool format \
    -t "$cluster_id" -c "$state/server.properties" >"$log_file" 2>&1 ||
    {
      tail -n 30 "$log_file" >&2
      die "formatting the log directory failed"
    }

  say "starting broker on 127.0.0.1:$port (controller $controller_port)"
  # setsid: the broker outlives this script and the terminal or test run that called it. The inner
  # shell records its own pid and then becomes java, so the pid file names the broker itself. The
  # lock descriptor (9) is closed for it, or the broker would hold the launcher's lock forever.
  # shellcheck disable=SC2016,SC2046
  setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$pid_file" \
    java $(jvm_flags) -cp "$cache/*" kafka.Kafka "$state/server.properties" \
    >>"$log_file" 2>&1 </dev/null 9>&- &
  local waited=0
  while [ ! -s "$pid_file" ] && [ "$waited" -lt 50 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  local pid
  pid="$(cat "$pid_file" 2>/dev/null || true)"
  [ -n "$pid" ] || die "broker did not start"

  if ! admin wait-ready "127.0.0.1:$port" "$start_timeout" "$pid"; then
    say "last lines of $log_file:"
    tail -n 40 "$log_file" >&2
    stop_broker
    die "broker did not become ready within ${start_timeout}s"
  fi
  [ -f "$topics_file" ] && admin create-topics "127.0.0.1:$port" "$topics_file"
  echo "KAFKA_BROKERS=127.0.0.1:$port" >"$env_file"
  say "ready (pid $pid); log: $log_file"
  cat "$env_file"
}

stop_broker() {
  local pid
  if pid="$(broker_pid)"; then
    say "stopping broker (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    local waited=0
    while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt $((stop_timeout * 10)) ]; do
      sleep 0.1
      waited=$((waited + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
      say "broker did not stop within ${stop_timeout}s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  # Only files this script creates are removed, so a mistaken GW_KAFKA_STATE_DIR cannot wipe a folder.
  rm -rf "$state/data"
  rm -f "$env_file" "$pid_file" "$state/server.properties" "$state/log4j.properties" "$log_file"
}

stop() {
  stop_broker
  rm -f "$state/.lock"
  rmdir "$state" 2>/dev/null || true
  say "stopped"
}

status() {
  if running; then
    say "running (pid $(broker_pid))"
    cat "$env_file"
    return 0
  fi
  say "not running"
  return 3
}

with_lock() {
  mkdir -p "$state"
  # One start or stop at a time per state folder; a second `start` then finds the broker running.
  exec 9>"$state/.lock"
  flock 9
  "$@"
}

case "${1:-}" in
start) with_lock start ;;
stop)
  if [ -d "$state" ]; then
    exec 9>"$state/.lock"
    flock 9
  fi
  stop
  ;;
status) status ;;
*)
  echo "usage: $0 start|stop|status" >&2
  exit 2
  ;;
esac
