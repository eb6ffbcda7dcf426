# Sourced by the bench scripts of this folder, from the repository's root: loopback ports, and a
# private nginx answering 200 "hello" (Debian's nginx, one worker).

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

wait_port() { # wait_port PORT: polls until something accepts on 127.0.0.1:PORT, 20 s at most
  python3 - "$1" <<'P'
import socket, sys, time
deadline = time.time() + 20
while time.time() < deadline:
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.5).close(); sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(1)
P
}

# nginx_conf DIR PORT ERROR_LOG: writes DIR/nginx.conf, one worker answering 200 "hello" on 127.0.0.1:PORT, no
# access log, keep-alive without limit. nginx's worker runs as nobody: DIR must be readable by it (a 0700
# folder from mktemp -d makes every answer a 403).
nginx_conf() {
  local dir=$1 port=$2 error_log=$3
  cat >"$dir/nginx.conf" <<C
daemon off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $error_log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 100000000;
  client_body_temp_path $dir/body; proxy_temp_path $dir/proxy; fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi; scgi_temp_path $dir/scgi;
  server {
    listen 127.0.0.1:$port;
    default_type text/plain;
    location / { return 200 "hello"; }
  }
}
C
}
