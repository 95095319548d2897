package io.profilestore.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.testing.junit5.DropwizardExtension;
import io.dropwizard.testing.junit5.ResourceExtension;
import io.profilestore.api.JsonFormat;
import io.profilestore.api.Problem;
import io.profilestore.audit.AuditFilter;
import io.profilestore.audit.HeadRefusal;
import io.profilestore.audit.RequestIds;
import io.profilestore.change.Lease;
import io.profilestore.change.OutboxRecord;
import io.profilestore.change.WritePathProbe;
import io.profilestore.history.ProfileHistory;
import io.profilestore.profiles.Documents;
import io.profilestore.profiles.ProfileService;
import io.profilestore.profiles.ProfileSettings;
import io.profilestore.resources.ApiProviders;
import io.profilestore.resources.ProfileHistoryResource;
import io.profilestore.resources.ProfileResource;
import io.profilestore.resources.UserResource;
import io.profilestore.search.CursorSeal;
import io.profilestore.search.SearchSettings;
import io.profilestore.twins.InMemoryLookUps;
import io.profilestore.twins.InMemoryStores;
import io.profilestore.twins.InMemoryUserJournal;
import io.profilestore.users.UserHistory;
import io.profilestore.users.UserService;
import io.profilestore.users.UserSettings;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The profile and user API in memory, for the fast tier: the real {@link ProfileResource}, {@link ProfileService},
 * {@link UserResource}, {@link UserService}, {@link UserHistory} and write path over the twins of {@link InMemoryStores}
 * and an {@link InMemoryUserJournal} (built as {@code wiring.Wiring} builds them, profiles and users sharing one
 * write path), registered as {@code ProfileStoreApplication.run} registers them
 * (request ids, the audit filter over twins of its writers, the HEAD refusal, body limits, the checks of conditional
 * writes, the problem mappers, and the JSON configuration), with the bundled configuration's limits and
 * Dropwizard's default exception mappers off as {@code server.registerDefaultExceptionMappers: false} has them.
 * <p>
 * Not here, for lack of a server: authentication and roles (every request is the anonymous caller, a person),
 * rate limits, request metrics, and the servlet layer (Jetty's own errors, {@code UnreadBodyFilter}, chunked
 * bodies); the integration tests keep those. A test class holds one in a static field, found by
 * {@code DropwizardExtensionsSupport}: its stores live as long as the class, so each test makes its own profiles.
 */
public final class ProfileApiOverTwins implements DropwizardExtension {

    public static final ObjectMapper JSON = JsonFormat.configure(Jackson.newObjectMapper());
    public static final int MAX_DOCUMENT_BYTES = new ProfileSettings().maxDocumentBytes;
    public static final int MAX_BATCH_SIZE = new ProfileSettings().maxBatchSize;
    public static final int MAX_PROFILES_PER_USER = new UserSettings().maxProfilesPerUser;

    public final InMemoryStores stores = new InMemoryStores();
    /** The merge journal and its history, as PostgreSQL holds them. */
    public final InMemoryUserJournal journal = new InMemoryUserJournal(stores.locks);
    /** The limits of users and merges the API was built with. */
    public final UserSettings users;
    /** A person's look-ups, which the audit filter records before the answer. */
    public final InMemoryLookUps lookUps = new InMemoryLookUps();
    public final InMemoryLookUps machineSearches = new InMemoryLookUps();
    private final ResourceExtension resources;
    private volatile WritePathProbe probe = WritePathProbe.NONE;

    /** With the bundled configuration's limits of users and merges. */
    public ProfileApiOverTwins() {
        this(new UserSettings());
    }

    /** With these limits of users and merges (a test of a limit sets it low). */
    public ProfileApiOverTwins(UserSettings users) {
        this.users = users;
        var steps = new WritePathProbe() {
            @Override
            public void locked(Lease lease) {
                probe.locked(lease);
            }

            @Override
            public void committing(Lease lease) {
                probe.committing(lease);
            }

            @Override
            public void recorded(Lease lease) {
                probe.recorded(lease);
            }

            @Override
            public void written(Lease lease) {
                probe.written(lease);
            }
        };
        var changes = stores.changeRunner(steps);
        var profiles = new ProfileService(stores.rows, changes, new Documents(JSON, MAX_DOCUMENT_BYTES), MAX_BATCH_SIZE,
                users.maxProfilesPerUser);
        var history = new ProfileHistory(stores.rows, CursorSeal.of(new SearchSettings()), 20);
        var builder = ResourceExtension.builder()
                .setMapper(JSON)
                .setRegisterDefaultExceptionMappers(false)
                .addProvider(new RequestIds())
                .addProvider(new AuditFilter(lookUps, machineSearches, stores.audit))
                .addProvider(new HeadRefusal())
                .addResource(new ProfileResource(profiles, history))
                .addResource(new ProfileHistoryResource(history, profiles))
                .addResource(new UserResource(new UserService(stores.rows, changes, journal, users),
                        new UserHistory(stores.rows, journal, journal)));
        ApiProviders.requestChecks().forEach(builder::addProvider);
        ApiProviders.problemMappers().forEach(builder::addProvider);
        resources = builder.build();
    }

    /**
     * What the write path calls at each step of the changes from now on, until the test sets {@link WritePathProbe#NONE}
     * again (in a finally: the stores live as long as the test class).
     */
    public void probe(WritePathProbe probe) {
        this.probe = probe;
    }

    @Override
    public void before() throws Throwable {
        resources.before();
    }

    @Override
    public void after() throws Throwable {
        resources.after();
    }

    /** An answer: its status, headers and body as text. */
    public record Reply(int status, MultivaluedMap<String, String> headers, String body) {
        public JsonNode json() {
            try {
                return body.isEmpty() ? JSON.missingNode() : JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }

        public String header(String name) {
            return headers.getFirst(name);
        }

        public String etag() {
            return header("ETag");
        }

        public String contentType() {
            return header("Content-Type");
        }

        public UUID pid() {
            return UUID.fromString(json().path("pid").asText());
        }
    }

    /**
     * Sends a request as a client would.
     *
     * @param contentType null to send the body without one
     * @param body        null to send none
     */
    public Reply send(String method, String path, String contentType, String body, Map<String, String> headers) {
        return send(method, path, Map.of(), contentType, body, headers);
    }

    /** A request with query parameters, each encoded as a client would. */
    public Reply send(String method, String path, Map<String, String> query, String contentType, String body,
            Map<String, String> headers) {
        var target = resources.target(path);
        for (var parameter : query.entrySet()) {
            target = target.queryParam(parameter.getKey(), parameter.getValue());
        }
        if (body != null && contentType == null) {
            // the client names a type for every body it sends; this one goes without
            target = target.register((ClientRequestFilter) request -> request.getHeaders().remove(HttpHeaders.CONTENT_TYPE));
        }
        var request = target.request();
        headers.forEach(request::header);
        var response = body == null ? request.method(method)
                : request.method(method, Entity.entity(body.getBytes(StandardCharsets.UTF_8),
                        contentType == null ? MediaType.APPLICATION_OCTET_STREAM : contentType));
        var answer = response.hasEntity() ? response.readEntity(String.class) : "";
        var copied = new MultivaluedHashMap<String, String>();
        response.getStringHeaders().forEach(copied::put);
        return new Reply(response.getStatus(), copied, answer);
    }

    public Reply get(UUID pid) {
        return send("GET", "/v1/profiles/" + pid, null, null, Map.of());
    }

    public Reply create(String data) {
        return send("POST", "/v1/profiles", "application/json", "{\"data\": " + data + "}", Map.of());
    }

    public Reply createFor(UUID uid, String data) {
        return send("POST", "/v1/profiles", "application/json", "{\"uid\": \"" + uid + "\", \"data\": " + data + "}",
                Map.of());
    }

    /** PUT with If-None-Match: *, a create at this pid. */
    public Reply createAt(UUID pid, String body) {
        return send("PUT", "/v1/profiles/" + pid, "application/json", body, Map.of("If-None-Match", "*"));
    }

    public Reply put(UUID pid, String ifMatch, String data) {
        return send("PUT", "/v1/profiles/" + pid, "application/json", "{\"data\": " + data + "}", ifMatch(ifMatch));
    }

    public Reply patch(UUID pid, String ifMatch, String mergePatch) {
        return send("PATCH", "/v1/profiles/" + pid, ProfileResource.MERGE_PATCH, mergePatch, ifMatch(ifMatch));
    }

    public Reply delete(UUID pid, String ifMatch) {
        return send("DELETE", "/v1/profiles/" + pid, null, null, ifMatch(ifMatch));
    }

    public Reply batchCreate(String body) {
        return send("POST", "/v1/profiles:batchCreate", "application/json", body, Map.of());
    }

    public Reply batchUpdate(String body) {
        return send("POST", "/v1/profiles:batchUpdate", "application/json", body, Map.of());
    }

    /** {@code GET /v1/users/{uid}}, the uid as given (a malformed one too). */
    public Reply user(Object uid) {
        return send("GET", "/v1/users/" + uid, null, null, Map.of());
    }

    /** {@code GET /v1/users/{uid}/merges}. */
    public Reply merges(Object uid) {
        return send("GET", "/v1/users/" + uid + "/merges", null, null, Map.of());
    }

    /** {@code PUT /v1/profiles/{pid}/user}: moves the profile to this user. */
    public Reply move(UUID pid, String ifMatch, UUID uid) {
        return send("PUT", "/v1/profiles/" + pid + "/user", "application/json", "{\"uid\": \"" + uid + "\"}",
                ifMatch(ifMatch));
    }

    /** {@code POST /v1/users/{uid}/merge} of these sources. */
    public Reply merge(UUID target, UUID... sources) {
        return send("POST", "/v1/users/" + target + "/merge", "application/json", "{\"sources\": ["
                + Arrays.stream(sources).map(uid -> "\"" + uid + "\"").collect(Collectors.joining(", ")) + "]}",
                Map.of());
    }

    /** {@code POST /v1/users/{uid}/unmerge} of one source. */
    public Reply unmerge(UUID target, UUID source) {
        return send("POST", "/v1/users/" + target + "/unmerge", "application/json",
                "{\"source\": \"" + source + "\"}", Map.of());
    }

    /** {@code POST /v1/users/{uid}/unmerge} of a whole merge, by its id. */
    public Reply unmergeById(UUID target, UUID mergeId) {
        return send("POST", "/v1/users/" + target + "/unmerge", "application/json",
                "{\"mergeId\": \"" + mergeId + "\"}", Map.of());
    }

    /** A new user holding {@code profiles} new profiles (at least one); its uid. */
    public UUID userWith(int profiles) {
        var first = create("{\"n\": 0}");
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        var uid = UUID.fromString(first.json().path("uid").asText());
        for (int i = 1; i < profiles; i++) {
            var next = createFor(uid, "{\"n\": " + i + "}");
            assertThat(next.status()).as(next.body()).isEqualTo(201);
        }
        return uid;
    }

    /** The pids a user's answer lists, in its order. */
    public static List<UUID> pidsOf(Reply user) {
        var pids = new ArrayList<UUID>();
        user.json().path("profiles").forEach(profile -> pids.add(UUID.fromString(profile.path("pid").asText())));
        return pids;
    }

    /** A new profile of this document; its pid. */
    public UUID existing(String data) {
        var created = create(data);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.pid();
    }

    /** What a refused request must leave as it was: the answer to a read of the profile, and its outbox records. */
    public record Snapshot(int status, String etag, String body, List<Long> outbox) {
    }

    public Snapshot snapshot(UUID pid) {
        var read = get(pid);
        return new Snapshot(read.status(), read.etag(), read.body(), outboxVersions(pid));
    }

    /** The versions of this profile announced to the indexer, in order. */
    public List<Long> outboxVersions(UUID pid) {
        return stores.outbox.records().stream().filter(record -> record.entityId().equals(pid))
                .map(OutboxRecord::version).toList();
    }

    /** The reply is an RFC 9457 problem of this status and type, with a title and a detail. */
    public static void assertProblem(Reply reply, int status, String typeSlug) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.contentType()).isEqualTo(Problem.MEDIA_TYPE);
        var problem = reply.json();
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        assertThat(problem.path("type").asText()).isEqualTo(Problem.TYPE_BASE + typeSlug);
        assertThat(problem.path("title").asText()).isNotBlank();
        assertThat(problem.path("detail").asText()).isNotBlank();
    }

    public static String etag(long version) {
        return "\"" + version + "\"";
    }

    private static Map<String, String> ifMatch(String value) {
        return value == null ? Map.of() : Map.of("If-Match", value);
    }
}
