package io.profilestore.config;

import ch.qos.logback.access.common.spi.IAccessEvent;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.jetty.ConnectorFactory;
import io.dropwizard.jetty.GzipHandlerFactory;
import io.dropwizard.jetty.HttpConnectorFactory;
import io.dropwizard.logging.common.AbstractAppenderFactory;
import io.dropwizard.logging.common.AppenderFactory;
import io.dropwizard.logging.common.ConsoleAppenderFactory;
import io.dropwizard.request.logging.LogbackAccessRequestLogFactory;
import io.dropwizard.request.logging.RequestLogFactory;
import io.dropwizard.util.DataSize;
import io.dropwizard.util.Duration;
import io.profilestore.resources.LoggedPathFilter;
import java.util.ArrayList;
import java.util.List;

/**
 * Dropwizard's server with the bundled profile-store.yml's {@code server} section as its defaults, so that a file of
 * one's own that leaves a setting out gets what the docs say, not Dropwizard's (ports 8080 and 8081, a request log
 * with query strings, its own exception mappers). It is what a {@code server} section without a {@code type} makes.
 */
public class ProfileStoreServerFactory extends DefaultServerFactory {

    public static final int APPLICATION_PORT = 18080;
    public static final int ADMIN_PORT = 18081;

    /**
     * Method, the path as {@link LoggedPathFilter} lets it be logged, status, size and time: a query string may hold a
     * search's terms (personal data, recorded in the audit trail instead) or a credential (refused, but logged all
     * the same), so it is never in the format.
     */
    public static final String REQUEST_LOG_FORMAT =
            "%h %l [%t] \"%m %reqAttribute{" + LoggedPathFilter.ATTRIBUTE + "} %H\" %s %b %D";

    public ProfileStoreServerFactory() {
        setApplicationConnectors(List.of(http(APPLICATION_PORT)));
        setAdminConnectors(List.of(http(ADMIN_PORT)));
        setShutdownGracePeriod(Duration.seconds(10));
        setRequestLogFactory(new PathOnlyRequestLogFactory());
        // errors are answered as application/problem+json by our own mappers
        setRegisterDefaultExceptionMappers(false);
        // a thread renamed after the request's URL would show live search terms in a thread dump
        setEnableThreadNameFilter(false);
        // deflating an answer smaller than a packet (a profile is about 500 bytes) saves nothing and costs CPU
        var gzip = new GzipHandlerFactory();
        gzip.setMinimumEntitySize(DataSize.bytes(1400));
        setGzipFilterFactory(gzip);
    }

    /** A {@code requestLog} section without a {@code type} is ours too. */
    @Override
    @JsonProperty("requestLog")
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type", defaultImpl = PathOnlyRequestLogFactory.class)
    public synchronized void setRequestLogFactory(RequestLogFactory<?> requestLog) {
        super.setRequestLogFactory(requestLog);
    }

    private static ConnectorFactory http(int port) {
        var connector = new HttpConnectorFactory();
        connector.setBindHost("0.0.0.0");
        connector.setPort(port);
        return connector;
    }

    /** Dropwizard's request log, whose appenders write {@link #REQUEST_LOG_FORMAT} unless given a format. */
    public static class PathOnlyRequestLogFactory extends LogbackAccessRequestLogFactory {

        public PathOnlyRequestLogFactory() {
            setAppenders(List.of(new ConsoleAppenderFactory<>()));
        }

        @Override
        @JsonProperty
        public void setAppenders(List<AppenderFactory<IAccessEvent>> appenders) {
            for (var appender : appenders) {
                if (appender instanceof AbstractAppenderFactory<IAccessEvent> withFormat
                        && withFormat.getLogFormat() == null) {
                    withFormat.setLogFormat(REQUEST_LOG_FORMAT);
                }
            }
            super.setAppenders(new ArrayList<>(appenders));
        }
    }
}
