# Build stage: the same Debian 12 + Swift 6.3.1 as development; `scripts/bootstrap --build-only` installs the C
# libraries the build links (none of the test tools). The COPY lines are what Package.swift needs: every target's
# directory (the bench targets under Benchmarks/Core and Benchmarks/Client, the test targets under Tests) and
# clients/js/statehouse.js, which Sources/StatehouseServer/Client/statehouse.js links to and the server embeds.
# scripts/check-docker-build (make docker-check, .ci/run) replays this stage without a Docker engine.
FROM swift:6.3.1-bookworm AS build
COPY scripts/bootstrap /usr/local/bin/statehouse-bootstrap
RUN /usr/local/bin/statehouse-bootstrap --build-only && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
COPY Benchmarks/Core ./Benchmarks/Core
COPY Benchmarks/Client ./Benchmarks/Client
COPY clients/js/statehouse.js ./clients/js/statehouse.js
COPY scripts/swift-release ./scripts/swift-release
RUN scripts/swift-release --static-swift-stdlib --product statehouse

# Runtime stage: only the shared libraries the binary links (libllhttp from trixie behind a priority-100 pin).
FROM debian:12-slim
RUN printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        > /etc/apt/sources.list.d/trixie.sources \
 && printf 'Package: *\nPin: release n=trixie\nPin-Priority: 100\n' > /etc/apt/preferences.d/trixie-pin \
 && apt-get update \
 && apt-get install -y --no-install-recommends libuv1 libllhttp9.2 libssl3 libsqlite3-0 libhiredis0.14 libstdc++6 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/.build/release/statehouse /usr/local/bin/statehouse
COPY Config/statehouse.json /etc/statehouse/statehouse.json
# The durable stores' database: data/statehouse.sqlite under the working directory (storage.path), on a volume.
RUN mkdir -p /var/lib/statehouse/data && chown -R nobody /var/lib/statehouse
WORKDIR /var/lib/statehouse
VOLUME /var/lib/statehouse/data
EXPOSE 8080
USER nobody
# debian:12-slim has no curl or wget, but it has bash (an Essential package), whose /dev/tcp redirection opens a TCP
# connection: one GET /healthz (public under auth), healthy when the status line says 200. No extra package, nothing
# added to the image.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD bash -c 'exec 3<>/dev/tcp/127.0.0.1/8080 && printf "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n" >&3 && read -r -t 4 status <&3 && [[ $status == "HTTP/1.1 200 "* ]]'
ENTRYPOINT ["statehouse", "serve", "--config", "/etc/statehouse/statehouse.json", "--host", "0.0.0.0", "--port", "8080"]
