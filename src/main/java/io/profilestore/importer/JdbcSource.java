package io.profilestore.importer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rows of a query over JDBC (the seed's own source: a PostgreSQL table of pid, uid and a jsonb document), each
 * turned into the record an NDJSON line would hold. The query names its columns {@code pid}, {@code uid} (either may
 * be null), {@code data} (json or jsonb) and, optionally, {@code created_at}; its rows are read as a cursor, a page at
 * a time. A row's position is its number in the result, so the query must order its rows (ORDER BY a key) for an
 * import to be resumed.
 */
public class JdbcSource implements ImportSource {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FETCH = 2_000;

    private final String url;
    private final String user;
    private final String password;
    private final String query;
    private Connection connection;

    public JdbcSource(String url, String user, String password, String query) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.query = query;
    }

    @Override
    public String identity() {
        // the URL without what it may carry of credentials: a checkpoint file is no place for a password
        return "jdbc " + url.replaceAll("(?i)(password|user)=[^&;]*", "$1=…") + ", query "
                + RecordReader.sha256(query).substring(0, 16);
    }

    @Override
    public long count() throws SQLException {
        try (var counting = DriverManager.getConnection(url, user, password);
                var statement = counting.createStatement();
                var rows = statement.executeQuery("SELECT count(*) FROM (" + query + ") AS source")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Override
    public Iterator<Raw> after(long position) throws SQLException {
        close();
        connection = DriverManager.getConnection(url, user, password);
        connection.setAutoCommit(false); // PostgreSQL streams a result through a cursor only inside a transaction
        connection.setReadOnly(true);
        Statement statement = connection.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        statement.setFetchSize(FETCH);
        ResultSet rows = statement.executeQuery(query);
        var columns = new TreeSet<String>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 1; i <= rows.getMetaData().getColumnCount(); i++) {
            columns.add(rows.getMetaData().getColumnLabel(i));
        }
        if (!columns.contains("data")) {
            throw new IllegalArgumentException("the import's query must select a column named data (json or jsonb)");
        }
        for (long skipped = 0; skipped < position && rows.next(); skipped++) {
            // the rows a checkpoint says are done
        }
        return new Iterator<>() {
            long row = position;
            Raw next = advance();

            private Raw advance() {
                try {
                    if (!rows.next()) {
                        return null;
                    }
                    row++;
                    return new Raw(row, record(rows, columns));
                } catch (SQLException e) {
                    throw new IllegalStateException("reading the import's query after row " + row + ": " + e.getSQLState(), e);
                }
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Raw next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                var current = next;
                next = advance();
                return current;
            }
        };
    }

    /** The row as an NDJSON record: its document as the database wrote it, its ids and time as JSON strings. */
    private static String record(ResultSet rows, Set<String> columns) throws SQLException {
        var text = new StringBuilder("{");
        for (String column : new String[] {"pid", "uid"}) {
            String value = columns.contains(column) ? rows.getString(column) : null;
            if (value != null) {
                text.append(quoted(column)).append(':').append(quoted(value)).append(',');
            }
        }
        var created = columns.contains("created_at") ? rows.getTimestamp("created_at") : null;
        if (created != null) {
            text.append("\"createdAt\":").append(quoted(created.toInstant().toString())).append(',');
        }
        String data = rows.getString("data");
        if (data != null) {
            text.append("\"data\":").append(data).append(',');
        }
        text.setLength(text.length() - (text.length() > 1 ? 1 : 0));
        return text.append('}').toString();
    }

    private static String quoted(String value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a string did not serialize", e);
        }
    }

    @Override
    public void close() throws SQLException {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }
}
