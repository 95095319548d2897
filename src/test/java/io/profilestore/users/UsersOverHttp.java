package io.profilestore.users;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.testing.Api;
import io.profilestore.users.UsersModel.Answer;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/** The service, over HTTP, as {@link UserSequences} runs it against the model. */
final class UsersOverHttp implements UsersUnderTest {

    private final Api api;

    UsersOverHttp(Api api) {
        this.api = api;
    }

    @Override
    public Answer create(UUID under) {
        var reply = under == null ? api.create("{\"surname\": \"Моделева\"}") : api.createFor(under, "{\"surname\": \"Моделева\"}");
        if (reply.status() != 201) {
            return refused(reply);
        }
        var pid = reply.pid();
        return new Answer(201, null, pid, uid(reply.json().path("uid")), null, Map.of(), Map.of(), Map.of(pid, 1L));
    }

    @Override
    public Answer erase(UUID pid, long ifMatch) {
        var reply = api.delete(pid, Api.etag(ifMatch));
        return reply.status() == 204 ? Answer.ok(204) : refused(reply);
    }

    @Override
    public Answer move(UUID pid, long ifMatch, UUID target) {
        var reply = api.move(pid, Api.etag(ifMatch), target);
        if (reply.status() != 200) {
            return refused(reply);
        }
        return new Answer(200, null, pid, uid(reply.json().path("uid")), null, Map.of(), Map.of(),
                Map.of(pid, reply.version()));
    }

    @Override
    public Answer merge(UUID target, List<UUID> sources) {
        var reply = api.merge(target, sources.toArray(UUID[]::new));
        if (reply.status() != 200) {
            return refused(reply);
        }
        var json = reply.json();
        return new Answer(200, null, null, target, uid(json.path("mergeId")), byUser(json.path("moved")), Map.of(),
                versions(json.path("versions")));
    }

    @Override
    public Answer unmerge(UUID target, UUID source) {
        return unmerged(api.unmerge(target, source));
    }

    @Override
    public Answer unmergeById(UUID target, UUID mergeId) {
        return unmerged(api.unmergeById(target, mergeId));
    }

    private Answer unmerged(Api.Reply reply) {
        if (reply.status() != 200) {
            return refused(reply);
        }
        var json = reply.json();
        var skipped = new TreeMap<UUID, String>();
        json.path("skipped").forEach(s -> skipped.put(uid(s.path("pid")), s.has("uid") ? "moved" : "erased"));
        return new Answer(200, null, null, uid(json.path("uid")), uid(json.path("mergeId")), byUser(json.path("restored")),
                skipped, versions(json.path("versions")));
    }

    @Override
    public UsersModel.Shown user(UUID uid) {
        var reply = api.user(uid);
        if (reply.status() == 404) {
            return null;
        }
        if (reply.status() != 200) {
            throw new AssertionError("GET /v1/users/" + uid + " answered " + reply.status() + ": " + reply.body());
        }
        var versions = new TreeMap<UUID, Long>();
        reply.json().path("profiles").forEach(p -> versions.put(uid(p.path("pid")), p.path("version").asLong()));
        return new UsersModel.Shown(uid(reply.json().path("uid")), versions);
    }

    private static Answer refused(Api.Reply reply) {
        String type = reply.json().path("type").asText("");
        return Answer.refused(reply.status(), type.substring(type.lastIndexOf('/') + 1));
    }

    private static Map<UUID, Set<UUID>> byUser(JsonNode lists) {
        var found = new LinkedHashMap<UUID, Set<UUID>>();
        lists.fields().forEachRemaining(entry -> {
            var pids = new LinkedHashSet<UUID>();
            entry.getValue().forEach(pid -> pids.add(uid(pid)));
            found.put(UUID.fromString(entry.getKey()), pids);
        });
        return found;
    }

    private static Map<UUID, Long> versions(JsonNode versions) {
        var found = new TreeMap<UUID, Long>();
        versions.fields().forEachRemaining(entry -> found.put(UUID.fromString(entry.getKey()), entry.getValue().asLong()));
        return found;
    }

    private static UUID uid(JsonNode node) {
        return UUID.fromString(node.asText());
    }
}
