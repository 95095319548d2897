package io.profilestore.audit;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/** Data sources over the stack's PostgreSQL that watch, hold or break what the audit writers call. */
final class WatchedDataSources {

    private WatchedDataSources() {
    }

    /** What a connection of {@link #watching} runs before each of its calls. */
    interface BeforeCall {
        void run(Method method, Object[] args) throws Throwable;
    }

    /** The data source, whose connections run {@code before} ahead of each call. */
    static DataSource watching(DataSource dataSource, BeforeCall before) {
        return (DataSource) Proxy.newProxyInstance(WatchedDataSources.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(dataSource, method, args);
                    if (!method.getName().equals("getConnection")) {
                        return result;
                    }
                    var connection = (Connection) result;
                    return Proxy.newProxyInstance(WatchedDataSources.class.getClassLoader(),
                            new Class<?>[] {Connection.class}, (p, m, a) -> {
                                before.run(m, a);
                                return invoke(connection, m, a);
                            });
                });
    }

    /** The data source, whose connections add the SQL text of each statement they prepare to {@code statements}. */
    static DataSource preparing(DataSource dataSource, List<String> statements) {
        return watching(dataSource, (method, args) -> {
            if (method.getName().equals("prepareStatement")) {
                statements.add((String) args[0]);
            }
        });
    }

    /** The data source, whose connections' commits say they are reached and wait for {@code release} (30 s at most). */
    static DataSource withHeldCommits(DataSource dataSource, CountDownLatch reached, CountDownLatch release) {
        return watching(dataSource, (method, args) -> {
            if (method.getName().equals("commit")) {
                reached.countDown();
                if (!release.await(30, TimeUnit.SECONDS)) {
                    throw new SQLException("the test never released the commit");
                }
            }
        });
    }

    /** The data source, whose first getConnection throws {@code thrown}; the others pass. */
    static DataSource throwingOnce(DataSource dataSource, Throwable thrown) {
        var thrownYet = new AtomicBoolean();
        return (DataSource) Proxy.newProxyInstance(WatchedDataSources.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection") && thrownYet.compareAndSet(false, true)) {
                        throw thrown;
                    }
                    return invoke(dataSource, method, args);
                });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
