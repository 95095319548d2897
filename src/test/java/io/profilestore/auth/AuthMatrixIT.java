package io.profilestore.auth;

import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every endpoint with every kind of caller: no token, a bad one, an expired JWT, and each role. */
@ExtendWith(DropwizardExtensionsSupport.class)
class AuthMatrixIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    /** A caller: the token it sends, and the roles it has (null: not authenticated at all). */
    record Caller(String name, String token, Set<Role> roles) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** An endpoint: which roles may call it, and a call that succeeds for them (on fresh data of its own). */
    record Endpoint(String name, Set<Role> allowed, Function<Api, Api.Reply> call) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Caller> callers() {
        return List.of(
                new Caller("no token", null, null),
                new Caller("bad token", "psk_not-a-key-of-ours", null),
                new Caller("expired JWT", TestAuth.jwt("someone", List.of("platform", "operator", "admin"), Duration.ofMinutes(-5)), null),
                new Caller("platform key", TestAuth.PLATFORM, Set.of(Role.PLATFORM)),
                new Caller("operator key", TestAuth.OPERATOR, Set.of(Role.OPERATOR)),
                new Caller("admin key", TestAuth.ADMIN, Set.of(Role.ADMIN)),
                new Caller("editor key", TestAuth.EDITOR, Set.of(Role.EDITOR)),
                new Caller("platform JWT", TestAuth.machineJwt("svc-platform", List.of("platform"), Duration.ofMinutes(5)), Set.of(Role.PLATFORM)),
                new Caller("operator JWT", TestAuth.jwt("anna.operator", List.of("operator", "other-app-role"), Duration.ofMinutes(5)), Set.of(Role.OPERATOR)),
                new Caller("admin JWT", TestAuth.jwt("admin.person", List.of("admin"), Duration.ofMinutes(5)), Set.of(Role.ADMIN)),
                new Caller("editor JWT", TestAuth.jwt("erik.editor", List.of("editor"), Duration.ofMinutes(5)), Set.of(Role.EDITOR)));
    }

    static Api owner() {
        return new Api(APP.getLocalPort());
    }

    static UUID profile() {
        return owner().create("{\"surname\": \"Тестова\"}").pid();
    }

    static UUID user() {
        return UUID.fromString(owner().create("{\"surname\": \"Тестова\"}").json().path("uid").asText());
    }

    static List<Endpoint> endpoints() {
        // the editor changes profiles as the platform does; whoever merges may find and read the people merged
        var changers = Set.of(Role.PLATFORM, Role.EDITOR);
        var readers = Set.of(Role.PLATFORM, Role.OPERATOR, Role.EDITOR, Role.ADMIN);
        var mergers = Set.of(Role.EDITOR, Role.ADMIN);
        var admin = Set.of(Role.ADMIN);
        var everyRole = Set.of(Role.values());
        var people = Set.of(Role.OPERATOR, Role.EDITOR, Role.ADMIN);
        return List.of(
                new Endpoint("POST /v1/profiles", changers, api -> api.create("{\"surname\": \"Тестова\"}")),
                new Endpoint("GET /v1/profiles/{pid}", readers, api -> api.get(profile())),
                new Endpoint("PUT /v1/profiles/{pid}", changers, api -> api.put(profile(), etag(1), "{\"a\": 1}")),
                new Endpoint("PATCH /v1/profiles/{pid}", changers, api -> api.patch(profile(), etag(1), "{\"a\": 1}")),
                new Endpoint("DELETE /v1/profiles/{pid}", changers, api -> api.delete(profile(), etag(1))),
                new Endpoint("POST /v1/profiles:batchCreate", changers, api -> api.batchCreate(
                        "{\"profiles\": [{\"data\": {}}]}")),
                new Endpoint("POST /v1/profiles:batchUpdate", changers, api -> api.batchUpdate(
                        "{\"updates\": [{\"pid\": \"" + profile() + "\", \"version\": 1, \"data\": {}}]}")),
                new Endpoint("PUT /v1/profiles/{pid}/user", changers, api -> api.move(profile(), etag(1), user())),
                new Endpoint("GET /v1/profiles/{pid}?asOf=", readers, api -> api.send("GET", "/v1/profiles/" + profile()
                        + "?asOf=" + Instant.now().plusSeconds(1), null, null, Map.of())),
                new Endpoint("GET /v1/profiles/{pid}/versions", readers, api -> api.send("GET", "/v1/profiles/" + profile()
                        + "/versions", null, null, Map.of())),
                new Endpoint("GET /v1/profiles/{pid}/versions/{version}", readers, api -> api.send("GET", "/v1/profiles/"
                        + profile() + "/versions/1", null, null, Map.of())),
                new Endpoint("DELETE /v1/profiles/{pid}/versions", admin, api -> {
                    var erased = profile();
                    assertThat(owner().delete(erased, etag(1)).status()).isEqualTo(204);
                    return api.send("DELETE", "/v1/profiles/" + erased + "/versions", null, null, Map.of());
                }),
                new Endpoint("GET /v1/profiles/{pid}/matches", readers, api -> api.send("GET", "/v1/profiles/" + profile()
                        + "/matches", null, null, Map.of())),
                new Endpoint("GET /v1/users/{uid}", readers, api -> api.user(user())),
                new Endpoint("POST /v1/users/{uid}/merge", mergers, api -> api.merge(user(), user())),
                new Endpoint("POST /v1/users/{uid}/unmerge", mergers, api -> {
                    var target = user();
                    var source = user();
                    owner().merge(target, source);
                    return api.unmerge(target, source);
                }),
                new Endpoint("GET /v1/search", readers, api -> api.send("GET", "/v1/search?surname=Тестова&limit=1", null, null, Map.of())),
                new Endpoint("POST /v1/search", readers, api -> api.send("POST", "/v1/search", "application/json",
                        "{\"surname\": \"Тестова\", \"limit\": 1}", Map.of())),
                new Endpoint("GET /v1/users/{uid}/merges", everyRole, api -> api.send("GET", "/v1/users/" + user() + "/merges",
                        null, null, Map.of())),
                new Endpoint("GET /v1/me", everyRole, api -> api.send("GET", "/v1/me", null, null, Map.of())),
                new Endpoint("GET /v1/console/session", people, api -> api.send("GET", "/v1/console/session", null, null, Map.of())),
                new Endpoint("GET /v1/audit", admin, api -> api.send("GET", "/v1/audit?limit=1", null, null, Map.of())),
                // an admin's reconcile and tables check read the whole shared stack before they answer: on a loaded
                // CI, and on a stack many runs have filled, each took more than the 30 s a request is given
                new Endpoint("POST /tasks/reconcile (admin port)", admin, api -> admin(api).waitingUpTo(Api.WHOLE_JOB)
                        .send("POST", "/tasks/reconcile?dryRun=true", null, null, Map.of())),
                new Endpoint("POST /tasks/check-tables (admin port)", admin, api -> admin(api).waitingUpTo(Api.WHOLE_JOB)
                        .send("POST", "/tasks/check-tables?dryRun=true", null, null, Map.of())),
                new Endpoint("POST /tasks/log-level (admin port)", admin, api -> admin(api).send("POST",
                        "/tasks/log-level?logger=io.profilestore&level=INFO", null, null, Map.of())));
    }


    /** The same caller on the admin port. */
    static Api admin(Api api) {
        return api.onPort(APP.getAdminPort());
    }

    static Stream<Arguments> matrix() {
        var cases = new ArrayList<Arguments>();
        for (var endpoint : endpoints()) {
            for (var caller : callers()) {
                cases.add(Arguments.of(endpoint, caller));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} by {1}")
    @MethodSource("matrix")
    void onlyTheRolesOfTheEndpointGetThrough(Endpoint endpoint, Caller caller) {
        var api = new Api(APP.getLocalPort()).as(caller.token());

        var reply = endpoint.call().apply(api);

        if (caller.roles() == null) {
            assertThat(reply.status()).as(reply.body()).isEqualTo(401);
            assertThat(reply.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
            assertThat(reply.contentType()).startsWith("application/problem+json");
        } else if (caller.roles().stream().anyMatch(endpoint.allowed()::contains)) {
            assertThat(reply.status()).as(reply.body()).isBetween(200, 299);
        } else {
            assertThat(reply.status()).as(reply.body()).isEqualTo(403);
            assertThat(reply.contentType()).startsWith("application/problem+json");
        }
    }

    /** The console is for people: a machine's credential is told so at sign-in, by the service, in its own words. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("machines")
    void aMachineCredentialIsRefusedAConsoleSession(String name, String token) {
        var reply = new Api(APP.getLocalPort()).as(token).send("GET", "/v1/console/session", null, null, Map.of());

        Api.assertProblem(reply, 403, "machine-credential");
        assertThat(reply.json().path("detail").asText()).contains("machine credential").contains("console is for people");
    }

    static Stream<Arguments> machines() {
        return Stream.of(Arguments.of("platform key", TestAuth.PLATFORM),
                Arguments.of("platform JWT", TestAuth.machineJwt("svc-platform", List.of("platform", "other-app-role"), Duration.ofMinutes(5))));
    }
}
