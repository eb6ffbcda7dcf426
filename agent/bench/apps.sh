# Sourced by overhead.sh and startup.sh: builds the agent jar and the test apps, and gives the class path
# of one test app (a trivial handler answering GET /fast with "ok", printing PORT=n once it listens and
# exiting when its standard input closes; springmvc: the Spring Boot 3 MVC service of
# examples/frameworks/spring-boot-mvc, on its own class path, which the agent's build builds first).
#   build_agent OUT_DIR            ./mvnw package (agent jar, test apps, agent/target/bench.classpath), Jetty 9.4 jars
#   app_main SERVER                sets MAIN and APP_LIBS for jetty12|jetty94|tomcat|netty|undertow|jdkhttp|springmvc, or returns 1
#   app_classpath SERVER OUT_DIR   after app_main: sets CP (returns 2 if the build's output is missing, 3 if javac failed)
#   prepare_app SCRIPT SERVER OUT_DIR   all of the above, exiting 2 with a message on failure
# Run from the repository's root.

AGENT_JAR=agent/target/loadsmith-agent.jar
APP_SERVERS="jetty12, jetty94, tomcat, netty, undertow, jdkhttp or springmvc"
SPRING_MVC=examples/frameworks/spring-boot-mvc/target

build_agent() {
  { ./mvnw -B -q -pl agent -am -DskipTests package dependency:build-classpath \
      -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test \
    && ./mvnw -B -q -pl agent dependency:copy@jetty94; } >"$1/build.log" 2>&1
}

app_main() {
  case "$1" in
    jetty12) MAIN=io.loadsmith.agent.apps.Jetty12App; APP_LIBS='/org/eclipse/jetty/|/org/slf4j/' ;;
    jetty94) MAIN=Jetty94App; APP_LIBS='/org/slf4j/' ;;
    tomcat) MAIN=io.loadsmith.agent.apps.TomcatApp; APP_LIBS='/org/apache/tomcat/' ;;
    netty) MAIN=io.loadsmith.agent.apps.NettyApp; APP_LIBS='/io/netty/' ;;
    undertow) MAIN=io.loadsmith.agent.apps.UndertowApp; APP_LIBS='/io/undertow/|/org/jboss/|/org/wildfly/|/io/smallrye/' ;;
    jdkhttp) MAIN=io.loadsmith.agent.apps.JdkHttpApp; APP_LIBS='^$' ;;
    springmvc) MAIN=io.loadsmith.examples.spring.mvc.MvcApp; APP_LIBS='' ;;
    *) return 1 ;;
  esac
}

app_classpath() {
  [[ -f $AGENT_JAR && -f agent/target/bench.classpath ]] || return 2
  if [[ $1 == springmvc ]]; then
    [[ -d $SPRING_MVC/lib ]] || return 2
    CP="$SPRING_MVC/classes:$(ls "$SPRING_MVC"/lib/*.jar | paste -sd:)"
    return 0
  fi
  # the app's class path: the test apps and only its server's jars (never the agent's unshaded libraries)
  CP="agent/target/test-classes:$(tr ':' '\n' < agent/target/bench.classpath | grep -E "$APP_LIBS" | paste -sd:)"
  if [[ $1 == jetty94 ]]; then
    local j94
    mkdir -p "$2/jetty94-app"
    j94=$(ls agent/target/jetty94/*.jar | paste -sd:)
    cp agent/src/test/resources/jetty94/Jetty94App.java.txt "$2/jetty94-app/Jetty94App.java"
    javac --release 17 -d "$2/jetty94-app" -cp "$j94" "$2/jetty94-app/Jetty94App.java" || return 3
    CP="$2/jetty94-app:$j94:$CP"
  fi
}

# prepare_app SCRIPT SERVER OUT_DIR: app_main, a fresh OUT_DIR, build_agent (unless SKIP_BUILD=1) and
# app_classpath, exiting with 2 and a message naming SCRIPT when one fails
prepare_app() {
  app_main "$2" || { echo "$1: --server must be $APP_SERVERS (got '$2')" >&2; exit 2; }
  rm -rf "$3"; mkdir -p "$3"
  if [[ "${SKIP_BUILD:-}" != 1 ]]; then
    echo "# building the agent jar and the test apps (./mvnw package -DskipTests)" >&2
    build_agent "$3" || { echo "$1: the build failed (see $3/build.log)" >&2; exit 2; }
  fi
  app_classpath "$2" "$3"
  case $? in
    0) ;;
    2) echo "$1: $AGENT_JAR, agent/target/bench.classpath or $SPRING_MVC/lib is missing (run without SKIP_BUILD=1)" >&2; exit 2 ;;
    *) echo "$1: javac Jetty94App failed" >&2; exit 2 ;;
  esac
}
