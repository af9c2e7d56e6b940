import Foundation

/// Codable shapes used across the tests.
struct Point: Codable, Equatable {
    var x: Int
    var y: Int
}

struct Profile: Codable, Equatable {
    var name: String
    var age: UInt8
    var score: Double
    var ratio: Float
    var nickname: String?
    var tags: [String]
    var grid: [[Int]]
    var home: Point?
    var counts: [String: Int]
    var byId: [Int: String]
    var flags: [Bool?]
}

enum Action: Codable, Equatable {
    case increment
    case add(amount: Int)
    case rename(String, reason: String?)
    case move(Point)
    case batch([Action])
}

enum Color: String, Codable, Equatable {
    case red, green
    case darkBlue = "dark-blue"
}

enum Priority: Int, Codable, Equatable {
    case low = 1
    case high = 10
}

struct Wide: Codable, Equatable {
    var i8: Int8
    var i16: Int16
    var i32: Int32
    var i64: Int64
    var u: UInt
    var u8: UInt8
    var u16: UInt16
    var u32: UInt32
    var u64: UInt64
    var i128: Int128
    var u128: UInt128
}

struct Empty: Codable, Equatable {}

/// Encodes nothing at all: Foundation writes `{}`.
struct Silent: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

/// Uses nested containers, superEncoder/superDecoder and explicit nil.
struct Manual: Codable, Equatable {
    var id: Int
    var parts: [String]
    var inner: Point
    var base: Point

    enum CodingKeys: String, CodingKey {
        case id, info, base
    }

    enum InfoKeys: String, CodingKey {
        case parts, inner, missing
    }

    init(id: Int, parts: [String], inner: Point, base: Point) {
        self.id = id
        self.parts = parts
        self.inner = inner
        self.base = base
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        let info = try container.nestedContainer(keyedBy: InfoKeys.self, forKey: .info)
        var list = try info.nestedUnkeyedContainer(forKey: .parts)
        var parts: [String] = []
        while !list.isAtEnd { parts.append(try list.decode(String.self)) }
        self.parts = parts
        inner = try info.decode(Point.self, forKey: .inner)
        base = try Point(from: container.superDecoder())
        _ = try container.superDecoder(forKey: .base)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var info = container.nestedContainer(keyedBy: InfoKeys.self, forKey: .info)
        try container.encode(id, forKey: .id)
        var list = info.nestedUnkeyedContainer(forKey: .parts)
        try info.encode(inner, forKey: .inner)
        for part in parts { try list.encode(part) }
        try info.encodeNil(forKey: .missing)
        try base.encode(to: container.superEncoder())
    }
}

/// A class hierarchy encoding its superclass through `superEncoder()`.
class Animal: Codable {
    var legs: Int
    init(legs: Int) { self.legs = legs }
}

final class Dog: Animal, @unchecked Sendable {
    var name: String

    init(name: String, legs: Int) {
        self.name = name
        super.init(legs: legs)
    }

    enum CodingKeys: String, CodingKey { case name }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try super.encode(to: container.superEncoder())
    }
}

/// Writes the same key twice and interleaves two nested containers with plain members.
struct Interleaved: Encodable {
    enum Keys: String, CodingKey { case b, a, c, z }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .z)
        var first = container.nestedUnkeyedContainer(forKey: .c)
        try container.encode("x", forKey: .b)
        var second = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
        try first.encode(1)
        try second.encode(true, forKey: .z)
        try first.encode(2)
        try second.encode(false, forKey: .a)
        try container.encode(2, forKey: .z)
        var unkeyed = first.nestedUnkeyedContainer()
        try unkeyed.encode(3)
        try first.encodeNil()
    }
}

/// Foundation types with special default strategies.
struct FoundationTypes: Codable, Equatable {
    var date: Date
    var data: Data
    var url: URL
    var decimal: Decimal
}
