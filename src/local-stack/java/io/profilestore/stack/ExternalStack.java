package io.profilestore.stack;

/** Services someone else runs: nothing to start or stop. */
final class ExternalStack implements Stack {

    private final Endpoints endpoints;

    ExternalStack(Endpoints endpoints) {
        this.endpoints = endpoints;
    }

    @Override
    public StackMode mode() {
        return StackMode.EXTERNAL;
    }

    @Override
    public Endpoints endpoints() {
        return endpoints;
    }

    @Override
    public String describe() {
        return "external services: Cassandra " + endpoints.cassandraContactPoints() + ", Elasticsearch "
                + endpoints.elasticsearchUrl() + ", PostgreSQL " + endpoints.postgresUrl() + ", RabbitMQ (RABBITMQ_URI)";
    }

    @Override
    public boolean canPause() {
        return false;
    }

    @Override
    public void pause(LocalStack.Service service) {
        throw new IllegalStateException("services someone else runs are not paused by the tests");
    }

    @Override
    public void resume(LocalStack.Service service) {
        throw new IllegalStateException("services someone else runs are not paused by the tests");
    }

    @Override
    public Outage outage(LocalStack.Service service) {
        throw new IllegalStateException("services someone else runs are not stopped by the tests");
    }

    @Override
    public void close() {
        // not ours to stop
    }
}
