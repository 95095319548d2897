package io.profilestore.health;

import com.codahale.metrics.health.HealthCheck;
import javax.sql.DataSource;

/** Healthy when the pool hands out a connection that answers a query. */
public class PostgresHealthCheck extends HealthCheck {

    private final DataSource dataSource;

    public PostgresHealthCheck(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    protected Result check() throws Exception {
        try (var connection = dataSource.getConnection();
                var statement = connection.createStatement()) {
            statement.setQueryTimeout(2);
            try (var rs = statement.executeQuery("SELECT current_setting('server_version')")) {
                rs.next();
                return Result.healthy("PostgreSQL " + rs.getString(1));
            }
        }
    }
}
