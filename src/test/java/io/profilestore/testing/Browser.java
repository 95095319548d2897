package io.profilestore.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium, headless, driven through Debian's ChromeDriver (installed by the build's prepare-machine
 * step): nothing is downloaded, and the browser makes no connection of its own (this machine has no internet).
 */
public final class Browser implements AutoCloseable {

    public static final Duration WAIT = Duration.ofSeconds(15);

    private final ChromeDriver driver;
    private final Path profile;

    public Browser() {
        try {
            profile = Files.createTempDirectory("profile-store-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        var options = new ChromeOptions().setBinary("/usr/bin/chromium")
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--disable-dev-shm-usage", "--window-size=1280,900", "--lang=en-US",
                        "--user-data-dir=" + profile);
        var service = new ChromeDriverService.Builder().usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile())
                .withTimeout(Duration.ofSeconds(60)).build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(15));
    }

    public WebDriver driver() {
        return driver;
    }

    public void open(String url) {
        driver.get(url);
    }

    public WebElement find(String css) {
        return until(d -> {
            var found = d.findElements(By.cssSelector(css));
            return found.isEmpty() || !found.get(0).isDisplayed() ? null : found.get(0);
        }, css + " shown");
    }

    /** Waits (at most {@link #WAIT}) until the condition holds, or fails naming it. */
    public <T> T until(Function<WebDriver, T> condition, String what) {
        return new WebDriverWait(driver, WAIT).withMessage(what).until(condition::apply);
    }

    public Object script(String script, Object... args) {
        return driver.executeScript(script, args);
    }

    /** A screenshot of the window, into {@code target/console-screenshots/NAME.png}. */
    public Path screenshot(String name) {
        try {
            Path folder = Path.of("target", "console-screenshots");
            Files.createDirectories(folder);
            Path file = folder.resolve(name + ".png");
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            try (var files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a temporary folder
            }
        }
    }
}
