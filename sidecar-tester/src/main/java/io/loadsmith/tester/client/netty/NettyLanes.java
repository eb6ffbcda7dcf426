package io.loadsmith.tester.client.netty;

import io.loadsmith.tester.record.Histograms;
import io.loadsmith.tester.transport.ConnectionStats;
import io.loadsmith.tester.transport.Lane;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.TransportOptions;
import io.loadsmith.tester.transport.TransportStats;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * {@link TransportOptions#loops()} event loops, each a {@link LoopScheduler} with a {@link NettyTransport}
 * of its own: one lane each, sharing nothing. Their counts are summed when read ({@link #connections()}
 * adds the lanes' connect-time histograms, so its median is the median of all connects).
 */
final class NettyLanes implements TransportStats {

    private final List<NettyTransport> transports;

    private NettyLanes(List<NettyTransport> transports) {
        this.transports = transports;
    }

    /** Starts the loops and their transports; if one cannot start, those started are closed. */
    static OpenTransport open(TransportOptions options, boolean nativeEpoll) {
        int loops = options.loops();
        List<LoopScheduler> schedulers = new ArrayList<>();
        List<NettyTransport> transports = new ArrayList<>();
        try {
            for (int i = 0; i < loops; i++) {
                LoopScheduler loop = LoopScheduler.start(nativeEpoll);
                schedulers.add(loop);
                int pool = Math.max(1, options.connections() / loops + (i < options.connections() % loops ? 1 : 0));
                transports.add(NettyTransport.on(loop, options.withConnections(pool)));
            }
        } catch (RuntimeException e) {
            transports.forEach(NettyTransport::close);
            schedulers.forEach(LoopScheduler::close);
            throw e;
        }
        List<Lane> lanes = new ArrayList<>();
        List<TransportStats> stats = new ArrayList<>();
        for (int i = 0; i < loops; i++) {
            lanes.add(new Lane(schedulers.get(i), transports.get(i)));
            stats.add(transports.get(i));
        }
        return new OpenTransport(lanes, stats, new NettyLanes(transports), List.copyOf(schedulers));
    }

    @Override
    public long sent() {
        return transports.stream().mapToLong(NettyTransport::sent).sum();
    }

    @Override
    public long inFlight() {
        return transports.stream().mapToLong(NettyTransport::inFlight).sum();
    }

    @Override
    public ConnectionStats connections() {
        long opened = 0;
        long reconnects = 0;
        long failed = 0;
        Histogram connects = Histograms.create();
        for (NettyTransport transport : transports) {
            ConnectionStats lane = transport.connections();
            opened += lane.opened();
            reconnects += lane.reconnects();
            failed += lane.failedConnects();
            connects.add(transport.connectTimes());
        }
        return new ConnectionStats(opened, reconnects, failed,
                connects.getTotalCount() == 0 ? 0 : connects.getValueAtPercentile(50) / 1000.0,
                connects.getMaxValue() / 1000.0);
    }
}
