package io.profilestore.users;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.TestStack;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The service itself against the reference model: random sequences of creates, erases, moves, merges and unmerges
 * over HTTP, every answer and every user compared with the model after each step. Sequences run four at a time,
 * each on users of its own.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class UsersAgainstTheModelIT {

    static final UsersModel.Limits LIMITS = UsersModelTest.LIMITS;

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("users.maxProfilesPerUser", String.valueOf(LIMITS.maxProfilesPerUser())),
                    ConfigOverride.config("users.maxMergeSources", String.valueOf(LIMITS.maxMergeSources())),
                    ConfigOverride.config("users.maxMergedUsers", String.valueOf(LIMITS.maxMergedUsers()))));

    static final int SEQUENCES = 120;

    @Test
    void randomSequencesAgreeWithTheModelAtEveryStep() throws Exception {
        var system = new UsersOverHttp(new Api(APP.getLocalPort()));
        var tally = new UserSequences.Tally();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            var runs = new ArrayList<CompletableFuture<Void>>();
            for (long seed = 1; seed <= SEQUENCES; seed++) {
                long s = seed;
                runs.add(CompletableFuture.runAsync(() -> UserSequences.run(new UsersModel(LIMITS), system, s, 12, tally),
                        pool));
            }
            CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get(8, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }

        System.out.println("users model against the service: " + tally);
        assertThat(tally.sequences.get()).isEqualTo(SEQUENCES);
        // more than one of each a sequence, on average (the 120 sequences do about 1.6 unmerges each)
        assertThat(tally.of("merge 200")).as("merges done").isGreaterThan(SEQUENCES);
        assertThat(tally.of("unmerge 200")).as("unmerges done").isGreaterThan(SEQUENCES);
        assertThat(tally.unmergesUnderALaterMerge.get()).as("unmerges of a merge merged on since").isPositive();
        assertThat(tally.of("skipped moved") + tally.of("skipped erased")).as("unmerges that left profiles").isPositive();
    }
}
