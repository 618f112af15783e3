<?php echo "<p>This is the included page.</p>";
