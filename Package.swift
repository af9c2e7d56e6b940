// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Statehouse",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "statehouse", targets: ["StatehouseCLI"]),
        .executable(name: "statehouse-echo", targets: ["StatehouseEcho"]),
        .executable(name: "statehouse-bench", targets: ["StatehouseBench"]),
        .executable(name: "statehouse-client-bench", targets: ["StatehouseClientBench"]),
        .library(name: "Statehouse", targets: ["Statehouse"]),
        .library(name: "StatehouseCore", targets: ["StatehouseCore"]),
        .library(name: "StatehouseServer", targets: ["StatehouseServer"]),
        .library(name: "StatehouseTesting", targets: ["StatehouseTesting"]),
        .library(name: "StatehouseClient", targets: ["StatehouseClient"]),
        // The demo reducers (Counter, TodoList, Search, Ticker), so a client app can try the demo stores typed.
        .library(name: "DemoReducers", targets: ["DemoReducers"]),
    ],
    targets: [
        // C libraries from Debian, each behind a thin shim (scripts/bootstrap installs them).
        .systemLibrary(name: "CLibUV", pkgConfig: "libuv", providers: [.apt(["libuv1-dev"])]),
        .systemLibrary(name: "CLLHTTP", pkgConfig: "libllhttp", providers: [.apt(["libllhttp-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CHiredis", pkgConfig: "hiredis", providers: [.apt(["libhiredis-dev"])]),

        // The project's one lock type (a pthread mutex and its value in one heap block: ThreadSanitizer sees it), its
        // monotonic clock and the metrics' duration histograms.
        .target(name: "Locking", swiftSettings: strict),
        // The reducer runtime: stores, effects, observers. No networking.
        .target(name: "StatehouseCore", dependencies: ["Locking"], swiftSettings: strict),
        // For reducer authors: ServableReducer and the JSON mapping of actions and states; re-exports StatehouseCore.
        // No networking, so an app can share a reducer's types with the server without linking it.
        .target(name: "Statehouse", dependencies: ["Locking", "StatehouseCore", "JSON", "JSONCoding"], swiftSettings: strict),
        // Test support for reducers: a manual clock and an exhaustive TestStore.
        .target(name: "StatehouseTesting", dependencies: ["Locking", "StatehouseCore"], swiftSettings: strict),
        // libuv event loop, TCP and the one thread-safe door into the loop.
        .target(name: "UVLoop", dependencies: ["Locking", "CLibUV"], swiftSettings: strict),
        // HTTP/1.1 request parsing (llhttp) and response encoding; a client's response parsing.
        .target(name: "HTTP1", dependencies: ["CLLHTTP"], swiftSettings: strict),
        // RFC 6455 framing, handshake and UTF-8 validation.
        .target(name: "WebSocket", dependencies: ["CCrypto"], swiftSettings: strict),
        // JSON values, RFC 6901 JSON Pointer and RFC 6902 JSON Patch (diff and apply). No dependencies.
        .target(name: "JSON", swiftSettings: strict),
        // Codable over JSON without Foundation's JSONDecoder/JSONEncoder: decode from a JSONValue, encode to bytes.
        .target(name: "JSONCoding", dependencies: ["JSON"], swiftSettings: strict),
        // A thin wrapper over SQLite: connections, prepared statements, errors, the online backup API.
        .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: strict),
        // A thin wrapper over hiredis 0.14: blocking RESP2 connections, pipelining, a pub/sub subscriber thread.
        .target(name: "Redis", dependencies: ["Locking", "CHiredis"], swiftSettings: strict),
        // The HTTP/WebSocket API over named stores.
        .target(
            name: "StatehouseServer",
            dependencies: [
                "Locking", "Statehouse", "StatehouseCore", "UVLoop", "HTTP1", "WebSocket", "JSON", "JSONCoding", "CCrypto", "SQLite",
                "Redis",
            ],
            // The browser client served at /client/statehouse.js, compiled in as bytes (no Bundle, no file read at
            // run time). Client/statehouse.js is a symlink to clients/js/statehouse.js; ClientScriptTests checks the
            // served bytes equal that file.
            // The inspector's page, script and style sheet (GET /inspector), compiled in the same way.
            resources: [
                .embedInCode("Client/statehouse.js"), .embedInCode("Inspector/inspector.html"),
                .embedInCode("Inspector/inspector.js"), .embedInCode("Inspector/inspector.css"),
            ],
            swiftSettings: strict
        ),
        // The Swift client library: one WebSocket per server on the project's own transport (no Foundation networking).
        .target(
            name: "StatehouseClient",
            dependencies: ["Locking", "Statehouse", "StatehouseCore", "JSON", "JSONCoding", "UVLoop", "HTTP1", "WebSocket"],
            swiftSettings: strict
        ),
        // Demo reducers shipped in the default executable.
        .target(name: "DemoReducers", dependencies: ["Statehouse"], swiftSettings: strict),
        .executableTarget(
            name: "StatehouseCLI",
            dependencies: ["StatehouseServer", "DemoReducers", "UVLoop", "StatehouseClient", "JSON"],
            swiftSettings: strict
        ),
        // A WebSocket echo server on the same transport, for Autobahn|Testsuite (make autobahn).
        .executableTarget(name: "StatehouseEcho", dependencies: ["UVLoop", "HTTP1", "WebSocket"], swiftSettings: strict),
        // In-process benchmarks: reducer throughput and JSON encode cost (Benchmarks/run core).
        .executableTarget(
            name: "StatehouseBench",
            dependencies: ["StatehouseCore", "DemoReducers", "JSONCoding"],
            path: "Benchmarks/Core",
            swiftSettings: strict
        ),
        // The Swift client against a running server: RemoteStore beside a raw WebSocketClient (Benchmarks/run client).
        .executableTarget(
            name: "StatehouseClientBench",
            dependencies: ["StatehouseClient", "DemoReducers", "UVLoop", "JSON", "Locking"],
            path: "Benchmarks/Client",
            swiftSettings: strict
        ),

        // Test clients on plain POSIX sockets, independent of the server's own transport code.
        .target(name: "StatehouseTestClients", dependencies: ["Locking", "CCrypto"], swiftSettings: strict),
        .testTarget(
            name: "StatehouseCoreTests", dependencies: ["Locking", "StatehouseCore", "StatehouseTestClients"],
            swiftSettings: strict),
        .testTarget(
            name: "StatehouseTestingTests",
            dependencies: ["StatehouseTesting", "StatehouseCore"],
            swiftSettings: strict
        ),
        // OneWay's README and StoreTests and GoodReactor's README flow, ported (docs/migrating.md).
        .testTarget(
            name: "MigrationTests", dependencies: ["Locking", "StatehouseCore", "StatehouseTesting", "StatehouseTestClients"],
            swiftSettings: strict),
        // XCTest test cases on TestStore and Store.expect: their failures must reach XCTest (the rest use Swift Testing).
        .testTarget(
            name: "StatehouseTestingXCTests",
            dependencies: ["Locking", "StatehouseTesting", "StatehouseCore"],
            swiftSettings: strict
        ),
        .testTarget(name: "HTTP1Tests", dependencies: ["HTTP1", "StatehouseTestClients"], swiftSettings: strict),
        .testTarget(name: "WebSocketTests", dependencies: ["WebSocket", "StatehouseTestClients"], swiftSettings: strict),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "StatehouseTestClients"], swiftSettings: strict),
        .testTarget(
            name: "JSONCodingTests", dependencies: ["JSONCoding", "JSON", "StatehouseTestClients"],
            swiftSettings: strict),
        .testTarget(
            name: "DemoReducersTests",
            dependencies: [
                "Locking", "DemoReducers", "StatehouseTesting", "StatehouseCore", "Statehouse", "JSONCoding", "JSON",
                "StatehouseTestClients",
            ],
            swiftSettings: strict),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"], swiftSettings: strict),
        .testTarget(name: "RedisTests", dependencies: ["Redis", "StatehouseTestClients", "Locking"], swiftSettings: strict),
        .testTarget(name: "UVLoopTests", dependencies: ["Locking", "UVLoop", "StatehouseTestClients"], swiftSettings: strict),
        .testTarget(
            name: "StatehouseServerTests",
            dependencies: ["Locking", 
                "StatehouseServer", "Statehouse", "DemoReducers", "StatehouseTestClients", "StatehouseCore", "UVLoop", "JSON", "SQLite", "WebSocket",
                "Redis",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "StatehouseClientTests",
            dependencies: [
                "StatehouseClient", "StatehouseServer", "Statehouse", "DemoReducers", "StatehouseTestClients", "UVLoop", "JSON",
                "Locking", "WebSocket",
            ],
            swiftSettings: strict
        ),
    ]
)
