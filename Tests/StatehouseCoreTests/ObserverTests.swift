import StatehouseCore
import StatehouseTestClients
import Testing

@Suite struct ObserverTests {
    @Test func observeReturnsCurrentSnapshotAtomically() async {
        let store = Store(reducer: Tally(), state: .init())
        _ = await store.send(.increment)
        let calls = Recorder<UInt64>()
        let (current, _) = await store.observe { calls.append($0.version) }
        #expect(current.version == 1)
        #expect(current.state.count == 1)
        _ = await store.send(.increment)
        #expect(calls.values == [2])
    }

    @Test func thousandObserversEachSeeEveryVersionInOrder() async {
        let store = Store(reducer: Tally(), state: .init())
        let recorders = (0..<1_000).map { _ in Recorder<UInt64>() }
        for recorder in recorders {
            _ = await store.observe { recorder.append($0.version) }
        }
        for _ in 0..<49 {
            store.enqueue(.increment)
        }
        _ = await store.send(.increment)
        let expected = Array(UInt64(1)...50)
        #expect(recorders.allSatisfy { $0.values == expected })
    }

    @Test func removedObserverIsNotCalledAgain() async {
        let store = Store(reducer: Tally(), state: .init())
        let calls = Recorder<UInt64>()
        let (_, token) = await store.observe { calls.append($0.version) }
        _ = await store.send(.increment)
        await store.removeObserver(token)
        _ = await store.send(.increment)
        #expect(calls.values == [1])
        #expect(await store.observerCount == 0)
    }
}

@Suite struct StatesStreamTests {
    @Test func slowConsumerSkipsButEndsOnNewest() async {
        let store = Store(reducer: Tally(), state: .init())
        let stream = await store.states()
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.version == 0)

        for _ in 0..<99 {
            store.enqueue(.increment)
        }
        _ = await store.send(.increment)
        // 100 states were yielded while nobody read; only the newest is buffered.
        let next = await iterator.next()
        #expect(next?.version == 100)
        #expect(next?.state.count == 100)

        _ = await store.send(.increment)
        #expect(await iterator.next()?.version == 101)
    }

    @Test func eachCallerGetsItsOwnCopies() async {
        let store = Store(reducer: Tally(), state: .init())
        let first = await store.states()
        let second = await store.states()
        var a = first.makeAsyncIterator()
        var b = second.makeAsyncIterator()
        #expect(await a.next()?.version == 0)
        #expect(await b.next()?.version == 0)
        _ = await store.send(.increment)
        #expect(await a.next()?.version == 1)
        #expect(await b.next()?.version == 1)
        #expect(await store.observerCount == 2)
    }

    @Test func consumerThatStopsIteratingIsRemoved() async {
        let store = Store(reducer: Tally(), state: .init())
        let stream = await store.states()
        let firstSeen = Gate()
        let consumer = Task {
            var count = 0
            for await _ in stream {
                count += 1
                firstSeen.open()
            }
            return count
        }
        await firstSeen.wait()
        #expect(await store.observerCount == 1)
        consumer.cancel()
        _ = await consumer.value
        #expect(await eventually { await store.observerCount == 0 })
    }

    @Test func droppedStreamIsRemoved() async {
        let store = Store(reducer: Tally(), state: .init())
        do {
            let stream = await store.states()
            _ = stream
        }
        #expect(await eventually { await store.observerCount == 0 })
    }

    @Test func unboundedStreamKeepsEveryState() async {
        let store = Store(reducer: Tally(), state: .init())
        let every = await store.states(bufferingPolicy: .unbounded)
        let newest = await store.states()
        for _ in 0..<3 { _ = await store.send(.increment) }
        var all: [UInt64] = []
        for await snapshot in every {
            all.append(snapshot.version)
            if all.count == 4 { break }
        }
        #expect(all == [0, 1, 2, 3])
        // The default keeps the newest only: the three states the consumer did not read collapsed into one.
        var iterator = newest.makeAsyncIterator()
        #expect(await iterator.next()?.version == 3)
    }

    @Test func keyPathStreamYieldsEachDistinctValueOfItsProperty() async {
        let store = Store(reducer: Tally(), state: .init())
        let values = await store.states(\.value, bufferingPolicy: .unbounded)
        for action in [Tally.Action.increment, .set(5), .set(5), .increment, .set(7), .set(5)] {
            _ = await store.send(action)
        }
        let stopped = Gate()
        store.enqueueStop { _ in stopped.open() }
        await stopped.wait()
        // The stream finished at the stop.
        var seen: [Int] = []
        for await value in values { seen.append(value) }
        #expect(seen == [0, 5, 7, 5])
    }

    @Test func keyPathStreamKeepsTheNewestValueByDefault() async {
        let store = Store(reducer: Tally(), state: .init(value: 3))
        let values = await store.states(\.value)
        _ = await store.send(.set(1))
        _ = await store.send(.set(2))
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == 2)
        _ = await store.send(.set(4))
        #expect(await iterator.next() == 4)
    }

    @Test func droppedKeyPathStreamIsRemoved() async {
        let store = Store(reducer: Tally(), state: .init())
        do {
            let stream = await store.states(\.count)
            #expect(await store.observerCount == 1)
            _ = stream
        }
        #expect(await eventually { await store.observerCount == 0 })
    }
}
