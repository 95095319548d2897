package io.profilestore.client;

import static io.profilestore.client.ProfileStoreClient.ifMatch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.client.api.HistoryApi;
import io.profilestore.client.api.ProfilesApi;
import io.profilestore.client.api.SearchApi.APISearchProfilesRequest;
import io.profilestore.client.api.UsersApi;
import io.profilestore.client.model.CreateProfileRequest;
import io.profilestore.client.model.MergeUsersRequest;
import io.profilestore.client.model.Problem;
import io.profilestore.client.model.Profile;
import io.profilestore.client.model.ProfileData;
import io.profilestore.client.model.ProfileVersion;
import io.profilestore.client.model.ReplaceProfileRequest;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.PersonalData;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.math.BigDecimal;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Java client (client/, docs/java-client.md) against the real service with authentication on, used as a
 * platform's developer would use it: create, read, patch and replace under If-Match, a stale write's problem, the
 * history and an as-of read, a search, a merge by an admin, an erase; a decimal kept exactly both ways; a forbidden
 * role and an unknown key as problems.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class JavaClientIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("indexer.inProcess", "true")));

    @Test
    void aPlatformKeepsAProfileThroughTheClientAndReadsItsPast() throws Exception {
        var platform = ProfileStoreClient.connect(base(), TestAuth.PLATFORM);
        var profiles = new ProfilesApi(platform);
        var history = new HistoryApi(platform);
        var phone = SearchApi.uniquePhone();
        var amount = new BigDecimal("12345678901234567890.123456789012345678");
        List.of("Клиентова", "Клиентова-Новая", "Опоздавшая", "Анна", phone).forEach(PersonalData::note);

        var created = profiles.createProfile(new CreateProfileRequest().data(new ProfileData().surname("Клиентова")
                .phones(List.of(phone)).putAdditionalProperty("creditLimit", amount)));
        var pid = created.getPid();
        var read = profiles.getProfile(pid, null);

        assertThat(created.getVersion()).isEqualTo(1);
        assertThat(read.getUid()).isEqualTo(created.getUid());
        assertThat(read.getData().getSurname()).isEqualTo("Клиентова");
        assertThat(read.getData().getAdditionalProperty("creditLimit")).as("kept exactly, read exactly").isEqualTo(amount);

        var patched = profiles.patchProfile(ifMatch(1), pid, Map.of("firstName", "Анна"));
        assertThat(patched.getVersion()).isEqualTo(2);
        var stale = catchThrowableOfType(ApiException.class, () -> profiles.replaceProfile(pid,
                new ReplaceProfileRequest().data(new ProfileData().surname("Опоздавшая")), ifMatch(1), null));
        assertThat(stale.getCode()).isEqualTo(412);
        assertThat(ProfileStoreClient.problem(stale)).get().extracting(Problem::getType)
                .isEqualTo(URI.create("https://profile-store.dev/problems/stale-version"));
        // the document as read, written back: its decimal goes back as it came
        var replaced = profiles.replaceProfile(pid, new ReplaceProfileRequest().data(patched.getData().surname("Клиентова-Новая")),
                ifMatch(patched.getVersion()), null);
        assertThat(replaced.getVersion()).isEqualTo(3);
        assertThat(replaced.getData().getAdditionalProperty("creditLimit")).as("written exactly").isEqualTo(amount);

        var versions = history.listProfileVersions(pid, null, null).getItems();
        assertThat(versions).extracting(ProfileVersion::getVersion).containsExactly(3L, 2L, 1L);
        assertThat(versions).extracting(version -> version.getKind().getValue())
                .containsExactly("replaced", "patched", "created");
        assertThat(history.getProfileVersion(pid, 2L).getData().getFirstName()).isEqualTo("Анна");
        // as of the patch's own time (the server's): the newest version made by then, 2 unless the replace came in
        // the same millisecond
        var patchedAt = versions.get(1).getChangedAt();
        var newestThen = versions.stream().filter(version -> !version.getChangedAt().isAfter(patchedAt))
                .mapToLong(ProfileVersion::getVersion).max().orElseThrow();
        assertThat(profiles.getProfile(pid, patchedAt).getVersion()).isEqualTo(newestThen).isGreaterThanOrEqualTo(2);

        SearchApi.awaitIndexed(pid, 3);
        var found = new io.profilestore.client.api.SearchApi(platform).searchProfiles(
                APISearchProfilesRequest.newBuilder().phone(phone).build());
        assertThat(found.getItems()).singleElement().satisfies(item -> {
            assertThat(item.getPid()).isEqualTo(pid);
            assertThat(item.getVersion()).isEqualTo(3);
        });

        var admin = new UsersApi(ProfileStoreClient.connect(base(), TestAuth.ADMIN));
        var target = profiles.createProfile(new CreateProfileRequest().data(new ProfileData())).getUid();
        var merge = admin.mergeUsers(target, new MergeUsersRequest().sources(Set.of(created.getUid())));
        assertThat(merge.getVersions()).containsEntry(pid.toString(), 4L);
        assertThat(new UsersApi(platform).getUser(target).getProfiles()).extracting(Profile::getPid).contains(pid);

        profiles.deleteProfile(ifMatch(4), pid);
        var gone = catchThrowableOfType(ApiException.class, () -> profiles.getProfile(pid, null));
        assertThat(gone.getCode()).isEqualTo(404);
        assertThat(ProfileStoreClient.problem(gone)).get().extracting(Problem::getType)
                .isEqualTo(URI.create("https://profile-store.dev/problems/profile-not-found"));
    }

    @Test
    void aRoleTheOperationDoesNotAllowOrAnUnknownKeyIsAProblemNotAnAnswer() {
        var operator = new ProfilesApi(ProfileStoreClient.connect(base(), TestAuth.OPERATOR));
        var forbidden = catchThrowableOfType(ApiException.class,
                () -> operator.createProfile(new CreateProfileRequest().data(new ProfileData())));
        var unknownKey = "psk_unknown-0123456789abcdefghijklmnopqrstuv";
        PersonalData.note(unknownKey);
        var stranger = new ProfilesApi(ProfileStoreClient.connect(base(), unknownKey));
        var unknown = catchThrowableOfType(ApiException.class, () -> stranger.getProfile(UUID.randomUUID(), null));

        assertThat(forbidden.getCode()).isEqualTo(403);
        assertThat(ProfileStoreClient.problem(forbidden)).get().extracting(Problem::getStatus).isEqualTo(403);
        assertThat(unknown.getCode()).isEqualTo(401);
        assertThat(unknown.getResponseHeaders().firstValue("WWW-Authenticate")).hasValueSatisfying(
                challenge -> assertThat(challenge).startsWith("Bearer"));
    }

    private static URI base() {
        return URI.create("http://127.0.0.1:" + APP.getLocalPort());
    }
}
