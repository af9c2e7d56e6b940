# Build stage: the same Debian 12 + Swift 6.3.1 as development; scripts/bootstrap installs the C libraries.
FROM swift:6.3.1-bookworm AS build
COPY scripts/bootstrap /usr/local/bin/statehouse-bootstrap
RUN /usr/local/bin/statehouse-bootstrap && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
COPY scripts/swift-release ./scripts/swift-release
RUN scripts/swift-release --static-swift-stdlib --product statehouse

# Runtime stage: only the shared libraries the binary links (libllhttp from trixie behind a priority-100 pin).
FROM debian:12-slim
RUN printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        > /etc/apt/sources.list.d/trixie.sources \
 && printf 'Package: *\nPin: release n=trixie\nPin-Priority: 100\n' > /etc/apt/preferences.d/trixie-pin \
 && apt-get update \
 && apt-get install -y --no-install-recommends libuv1 libllhttp9.2 libssl3 libsqlite3-0 libstdc++6 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/.build/release/statehouse /usr/local/bin/statehouse
COPY Config/statehouse.json /etc/statehouse/statehouse.json
# The durable stores' database: data/statehouse.sqlite under the working directory (storage.path), on a volume.
RUN mkdir -p /var/lib/statehouse/data && chown -R nobody /var/lib/statehouse
WORKDIR /var/lib/statehouse
VOLUME /var/lib/statehouse/data
EXPOSE 8080
USER nobody
ENTRYPOINT ["statehouse", "serve", "--config", "/etc/statehouse/statehouse.json", "--host", "0.0.0.0", "--port", "8080"]
