package io.profilestore.testing;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.profilestore.progress.Progress;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/** The lines a command's progress logs during a test (a field with {@code @RegisterExtension}). */
public final class ProgressLines implements BeforeEachCallback, AfterEachCallback {

    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(Progress.class);

    @Override
    public void beforeEach(ExtensionContext context) {
        lines.start();
        logger.addAppender(lines);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        logger.detachAppender(lines);
    }

    /** The events logged so far, oldest first. */
    public List<ILoggingEvent> list() {
        return lines.list;
    }
}
