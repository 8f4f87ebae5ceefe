# Sourced by the benchmarks that download from a tile server: nginx on 127.0.0.1 (2 workers,
# sendfile, no access log, `expires 1h` on every file), its files in $work.

# nginx_start ROOT PORT: serves the folder ROOT (a path; a symlink is followed per request).
nginx_start() {
  mkdir -p "$work/logs"
  cat > "$work/nginx.conf" <<CONF
worker_processes 2;
daemon on;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events { worker_connections 4096; }
http {
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 1000000;
  client_body_temp_path $work/body; proxy_temp_path $work/proxy; fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi; scgi_temp_path $work/scgi;
  server { listen 127.0.0.1:$2; root $1; expires 1h; }
}
CONF
  nginx -c "$work/nginx.conf" -p "$work"
  sleep 0.5
}

# nginx_stop: stops it (nothing when it was not started).
nginx_stop() {
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  sleep 0.3
}
