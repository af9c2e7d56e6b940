/// Container records and where values sit in the coding path.
extension BytesEncoder {
    /// The coding path position that `anchor` stands for.
    func position(of anchor: PathAnchor) -> PathPosition {
        switch anchor {
        case .frame: return framePosition
        case .node(let node): return position(ofNode: node.index)
        case .superEncoder(let encoder): return encoder.position
        }
    }

    /// The position of container record `index`.
    func position(ofNode index: Int) -> PathPosition {
        let position = state.pointee.nodes[index].position
        if position >= 0 { return state.pointee.positions[position] }
        return PathPosition(depth: state.pointee.nodes[index].pathDepth)
    }

    /// Pushes the steps of `anchor`'s position that are not on the path stack yet (none unless it is nested).
    func pushSteps(of anchor: PathAnchor) {
        switch anchor {
        case .frame: return
        case .node(let node):
            let position = state.pointee.nodes[node.index].position
            if position >= 0 { state.pointee.positions[position].pushSteps(onto: &state.pointee.path) }
        case .superEncoder(let encoder): encoder.position.pushSteps(onto: &state.pointee.path)
        }
    }

    /// The JSON nesting depth around a value written at `anchor`.
    func base(of anchor: PathAnchor) -> Int {
        switch anchor {
        case .frame: return state.pointee.levelBase
        case .node(let node): return state.pointee.nodes[node.index].depth
        case .superEncoder(let encoder): return encoder.base
        }
    }

    /// The container for a level whose root is `existing`: the same container again, or a new one.
    /// Asking for a different kind of container than the level already has is a programming error (as in
    /// Foundation).
    func levelNode(existing: LevelRoot, keyed: Bool, base: Int, position: PathPosition) -> NodeHandle {
        switch existing {
        case .container(let node):
            precondition(
                state.pointee.nodes[node.index].isKeyed == keyed,
                "Attempt to push a different container kind at the same coding path.")
            return node
        case .single:
            preconditionFailure("Attempt to push a new container when a single value was already encoded.")
        case .empty:
            return makeNode(keyed: keyed, depth: base + 1, position: position)
        }
    }

    /// A new container record at `position` whose opening bracket is written now.
    func makeNode(keyed: Bool, depth: Int, position: PathPosition) -> NodeHandle {
        if !position.isNested { return makeNode(keyed: keyed, depth: depth, pathDepth: position.depth) }
        let index = state.pointee.positions.count
        state.pointee.positions.append(position)
        return makeNode(keyed: keyed, depth: depth, pathDepth: position.depth, position: index)
    }

    /// A new container record at the first `pathDepth` steps of the path (or at `positions[position]`).
    func makeNode(keyed: Bool, depth: Int, pathDepth: Int, position: Int = -1) -> NodeHandle {
        let state = self.state
        if depth >= 512 { state.pointee.depthExceeded = true }
        state.pointee.generations &+= 1
        let generation = state.pointee.generations
        let index = state.pointee.nodes.append(
            EncodingNode(
                isKeyed: keyed, openAt: state.pointee.bytes.count, depth: depth, position: position,
                pathDepth: pathDepth, generation: generation))
        state.pointee.bytes.append(keyed ? UInt8(ascii: "{") : UInt8(ascii: "["))
        return NodeHandle(index: index, generation: generation)
    }
}

/// Where a value being written sits, resolved to a `PathPosition` only when needed (errors, new levels).
enum PathAnchor {
    /// The current level's own value (the single-value container).
    case frame
    /// A member of a container.
    case node(NodeHandle)
    /// A super encoder's own value (at its position, its base depth).
    case superEncoder(SuperEncoder)
}
